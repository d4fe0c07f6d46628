import { Hono } from 'hono';
import { type ScanQueue, startRequestedScan } from '../../core/domains/scan-requests.ts';
import { scanView } from '../../core/domains/views.ts';
import { jsonObjectStream, mapRows } from '../../core/json-stream.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import {
  cancelScan,
  latestScan,
  latestWorkerHeartbeat,
  listScans,
  ownScan,
  userScans,
} from '../../core/scans/scans.ts';
import { scanStats } from '../../core/scans/stats.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import type { ServiceHealth } from '../../model/contract.ts';
import { scanListQuerySchema, startScanSchema } from '../../model/schemas.ts';
import { WORKSPACE_HEADER } from '../../model/workspaces.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { callerIn } from '../workspace-scope.ts';

export interface ScanServiceDeps {
  queue: ScanQueue;
  /** Whether the job queue is running in this process. */
  queueUp: () => boolean;
  now?: () => Date;
  /** The scan resolvers, through which a scan re-checks the ownership record. */
  resolvers?: string[];
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
      const { user, owner } = await callerIn(db, c, 'scans.start');
      const row = await startRequestedScan(db, deps.queue, {
        owner,
        actorId: user.id,
        body,
        now: now(),
        ip: c.get('clientAddress'),
        resolvers: deps.resolvers,
      });
      return c.json({ scan_id: row.id, status: row.status }, 202);
    })
    .get('/scan/:id', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      return c.json(scanView(await ownScan(db, owner.id, c.req.param('id')), { withSubdomains: true }));
    })
    .post('/scan/:id/cancel', async (c) => {
      const { owner } = await callerIn(db, c, 'scans.start');
      return c.json({ scan: scanView(await cancelScan(db, owner.id, c.req.param('id'), now())) });
    })
    .get('/scans', async (c) => {
      const query = parseInput(scanListQuerySchema, c.req.query());
      // The hottest list call: without a named workspace it is the personal one, whose id is the
      // token's uid, with no query to find it (a caller without a row yet simply has no scans).
      const workspaceId = c.req.header(WORKSPACE_HEADER)
        ? (await callerIn(db, c, 'read')).owner.id
        : c.get('token').uid;
      return c.json(await listScans(db, workspaceId, query));
    })
    .get('/scans/latest', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      const row = await latestScan(db, owner.id);
      return c.json({ scan: row ? scanView(row) : null });
    })
    .get('/scans/stats', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      return c.json(await scanStats(db, owner.id, now()));
    })
    .get('/export', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      c.header('Content-Type', 'application/json; charset=UTF-8');
      return c.body(
        jsonObjectStream([
          ['exportedAt', now().toISOString()],
          [
            'scans',
            () =>
              mapRows(userScans(db, owner.id, 'newest'), (row) => scanView(row, { withSubdomains: true })),
          ],
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
      const body: ServiceHealth = { status, checks, worker_heartbeat_age_seconds: age };
      c.header('Cache-Control', 'no-store');
      return c.json(body, status === 'down' ? 503 : 200);
    })
    .route('/api/v1', api);
}
