import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { z } from 'zod';
import { isPlanId, listUsers, setPlan } from '../../core/operator/accounts.ts';
import type { Db } from '../../db/client.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { readJson } from '../validation.ts';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

const planSchema = z.strictObject({
  email: z.string().trim().min(1).max(320),
  plan: z.string().refine(isPlanId, 'unknown plan'),
  workspace: z.string().trim().min(1).max(100).optional(),
});

/** What `danglewatch users` asks a running server: loopback peers with the operator token only. */
export function operatorRoutes(db: Db, token: string) {
  const expected = Buffer.from(`Operator ${token}`);
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      // The socket's own address: X-Forwarded-For is never trusted here.
      let peer = '';
      try {
        peer = getConnInfo(c).remote.address ?? '';
      } catch {}
      const given = Buffer.from(c.req.header('authorization') ?? '');
      if (!LOOPBACK.test(peer) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError(404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`);
      }
      await next();
    })
    .get('/users', async (c) => c.json({ users: await listUsers(db) }))
    .post('/users/plan', async (c) => {
      const { email, plan, workspace } = await readJson(c, planSchema);
      return c.json({ updated: await setPlan(db, email, plan, workspace) });
    });
}
