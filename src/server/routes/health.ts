import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

/** Liveness (the process answers) and readiness (the database answers and is migrated). */
export function healthRoutes(isReady: () => Promise<boolean>) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }))
    .get('/ready', async (c) => {
      const ready = await isReady().catch((error: unknown) => {
        c.get('logger').warn({ err: error }, 'readiness check failed');
        return false;
      });
      return ready ? c.json({ status: 'ready' }) : c.json({ status: 'not ready' }, 503);
    });
}
