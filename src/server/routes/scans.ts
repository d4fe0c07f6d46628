import { Hono } from 'hono';
import { type ScanQueue, startRequestedScan } from '../../core/domains/scan-requests.ts';
import { jsonObjectStream } from '../../core/json-stream.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import {
  cancelScan,
  exportScans,
  latestScan,
  latestWorkerHeartbeat,
  listScans,
  scanDetails,
} from '../../core/scans/scans.ts';
import { scanStats } from '../../core/scans/stats.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import type { ServiceHealth } from '../../model/contract.ts';
import type { ProofCheckId } from '../../model/proof.ts';
import { scanListQuerySchema, startScanSchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

export interface ScanServiceDeps {
  queue: ScanQueue;
  /** Whether the job queue is running in this process. */
  queueUp: () => boolean;
  now?: () => Date;
  /** The scan resolvers, through which a scan re-checks the ownership record. */
  resolvers?: string[];
  /** Proof checks off for want of probe credentials. */
  proofsOff?: ProofCheckId[];
}

/** A worker that has not reported for this long counts as gone. */
const WORKER_STALE_SECONDS = 60;

const smallBody = limitBody(BODY_LIMIT_KB.standard);

/** The scan service (`/scan/health`, `/scan/api/v1/*`, docs/fixed-contract.md), on the caller's own scans only. */
export function scanRoutes(db: Db, auth: AuthDeps | undefined, deps: ScanServiceDeps) {
  const now = () => deps.now?.() ?? new Date();
  const api = new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .post('/scan', smallBody, async (c) => {
      const body = await readJson(c, startScanSchema);
      const ctx = await sessionContext(db, c);
      const row = await startRequestedScan(db, deps.queue, ctx, {
        body,
        now: now(),
        resolvers: deps.resolvers,
      });
      return c.json({ scan_id: row.id, status: row.status }, 202);
    })
    .get('/scan/:id', async (c) => {
      return c.json(await scanDetails(db, await sessionContext(db, c), c.req.param('id')));
    })
    .post('/scan/:id/cancel', async (c) => {
      return c.json({ scan: await cancelScan(db, await sessionContext(db, c), c.req.param('id'), now()) });
    })
    .get('/scans', async (c) => {
      const query = parseInput(scanListQuerySchema, c.req.query());
      return c.json(await listScans(db, await sessionContext(db, c), query));
    })
    .get('/scans/latest', async (c) => {
      return c.json({ scan: await latestScan(db, await sessionContext(db, c)) });
    })
    .get('/scans/stats', async (c) => {
      return c.json(await scanStats(db, await sessionContext(db, c), now()));
    })
    .get('/export', async (c) => {
      const scans = exportScans(db, await sessionContext(db, c));
      c.header('Content-Type', 'application/json; charset=UTF-8');
      return c.body(
        jsonObjectStream([
          ['exportedAt', now().toISOString()],
          ['scans', () => scans],
        ]),
      );
    });

  return new Hono<AuthedEnv>()
    .get('/health', async (c) => {
      let database = true;
      let heartbeat: Date | undefined;
      try {
        heartbeat = await latestWorkerHeartbeat(db);
      } catch (error) {
        c.get('logger').warn({ err: error }, 'health: database unreachable');
        database = false;
      }
      const age = heartbeat ? Math.max(0, Math.round((now().getTime() - heartbeat.getTime()) / 1000)) : null;
      const checks = { database, queue: deps.queueUp(), worker: age !== null && age <= WORKER_STALE_SECONDS };
      const status: ServiceHealth['status'] = !checks.database
        ? 'down'
        : checks.queue && checks.worker
          ? 'healthy'
          : 'degraded';
      const body: ServiceHealth = {
        status,
        checks,
        worker_heartbeat_age_seconds: age,
        proofs_off: deps.proofsOff ?? [],
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body, status === 'down' ? 503 : 200);
    })
    .route('/api/v1', api);
}
