import { and, count, desc, eq, gte, isNotNull, sql, sum } from 'drizzle-orm';
import { Hono } from 'hono';
import { type ScanQueue, startRequestedScan } from '../../core/domains/scan-requests.ts';
import { listScans, ownScan, userScans } from '../../core/domains/store.ts';
import { scanView } from '../../core/domains/views.ts';
import { jsonObjectStream, mapRows } from '../../core/json-stream.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { currentUser } from '../../core/users/users.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { domains, findings, scans, workerHeartbeats } from '../../db/schema.ts';
import { SCAN_STATUSES, type ScanStats, type ScanStatus, type ServiceHealth } from '../../model/contract.ts';
import { scanListQuerySchema, startScanSchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';

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

/** The scan service of spec 2 §7, on the caller's own scans only. */
export function scanRoutes(db: Db, auth: AuthDeps | undefined, deps: ScanServiceDeps) {
  const now = () => deps.now?.() ?? new Date();
  const api = new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .post('/scan', smallBody, async (c) => {
      const body = await readJson(c, startScanSchema);
      const user = await currentUser(db, c.var);
      const row = await startRequestedScan(db, deps.queue, {
        user,
        body,
        now: now(),
        ip: c.get('clientAddress'),
        resolvers: deps.resolvers,
      });
      return c.json({ scan_id: row.id, status: row.status }, 202);
    })
    .get('/scan/:id', async (c) => {
      const user = await currentUser(db, c.var);
      return c.json(scanView(await ownScan(db, user.id, c.req.param('id')), { withSubdomains: true }));
    })
    .post('/scan/:id/cancel', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownScan(db, user.id, c.req.param('id'));
      if (!['pending', 'running'].includes(row.status)) {
        throw new ApiError(409, 'SCAN_FINISHED', `This scan has already ended (${row.status})`);
      }
      // A pending scan ends here; a running one is stopped by its worker, which watches this flag.
      const [updated] = await db
        .update(scans)
        .set(
          row.status === 'pending'
            ? { status: 'cancelled', completedAt: now(), cancelRequested: true, error: 'Cancelled by you' }
            : { cancelRequested: true },
        )
        .where(eq(scans.id, row.id))
        .returning();
      return c.json({ scan: scanView(updated ?? row) });
    })
    .get('/scans', async (c) => {
      const query = parseInput(scanListQuerySchema, c.req.query());
      // The account id is the token's uid; a caller without a row yet simply has no scans.
      return c.json(await listScans(db, c.get('token').uid, query));
    })
    .get('/scans/latest', async (c) => {
      const user = await currentUser(db, c.var);
      const [row] = await db
        .select()
        .from(scans)
        .where(eq(scans.userId, user.id))
        .orderBy(desc(scans.createdAt))
        .limit(1);
      return c.json({ scan: row ? scanView(row) : null });
    })
    .get('/scans/stats', async (c) => {
      const user = await currentUser(db, c.var);
      const byStatus = await db
        .select({ status: scans.status, n: count(), issues: sum(scans.vulnerabilitiesFound) })
        .from(scans)
        .where(eq(scans.userId, user.id))
        .groupBy(scans.status);
      const counts = Object.fromEntries(SCAN_STATUSES.map((s) => [s, 0])) as Record<ScanStatus, number>;
      let issues = 0;
      for (const row of byStatus) {
        if (row.status in counts) counts[row.status as ScanStatus] = Number(row.n);
        if (row.status === 'completed') issues = Number(row.issues ?? 0);
      }
      const at = now();
      const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
      const [month] = await db
        .select({
          n: count(),
          names: sum(scans.subdomainsScanned),
          ct: count(sql`case when (${scans.config}->>'useCertificateTransparency')::boolean then 1 end`),
          validation: count(sql`case when (${scans.config}->>'useMultiStageValidation')::boolean then 1 end`),
        })
        .from(scans)
        .where(and(eq(scans.userId, user.id), gte(scans.createdAt, monthStart)));
      const [domainCount] = await db.select({ n: count() }).from(domains).where(eq(domains.userId, user.id));
      const [resolved] = await db
        .select({ n: count() })
        .from(findings)
        .where(and(eq(findings.userId, user.id), isNotNull(findings.resolvedAt)));
      const ended = counts.completed + counts.failed;
      const stats: ScanStats = {
        total: Object.values(counts).reduce((a, b) => a + b, 0),
        by_status: counts,
        success_rate: ended === 0 ? null : Math.round((counts.completed / ended) * 1000) / 10,
        issues_found: issues,
        issues_resolved: Number(resolved?.n ?? 0),
        domains_monitored: Number(domainCount?.n ?? 0),
        scans_this_month: Number(month?.n ?? 0),
        subdomains_scanned_this_month: Number(month?.names ?? 0),
        ct_lookups_this_month: Number(month?.ct ?? 0),
        validation_checks_this_month: Number(month?.validation ?? 0),
      };
      return c.json(stats);
    })
    .get('/export', async (c) => {
      const user = await currentUser(db, c.var);
      c.header('Content-Type', 'application/json; charset=UTF-8');
      return c.body(
        jsonObjectStream([
          ['exportedAt', now().toISOString()],
          [
            'scans',
            () => mapRows(userScans(db, user.id, 'newest'), (row) => scanView(row, { withSubdomains: true })),
          ],
        ]),
      );
    });

  return new Hono<AuthedEnv>()
    .get('/health', async (c) => {
      let database = true;
      let heartbeat: Date | undefined;
      try {
        const [row] = await db
          .select({ seenAt: workerHeartbeats.seenAt })
          .from(workerHeartbeats)
          .orderBy(desc(workerHeartbeats.seenAt))
          .limit(1);
        heartbeat = row?.seenAt;
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
