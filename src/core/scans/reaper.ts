import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { scans } from '../../db/schema.ts';
import { STALE_HEARTBEAT_MS } from '../../model/constants.ts';

/** Claims a scan may have; after that a lost scan fails instead of running again. */
const MAX_SCAN_ATTEMPTS = 2;
export const WORKER_LOST_MESSAGE =
  'The scan stopped because the worker running it went away (restart or crash). Please run it again.';

/** Pending scans the reaper looks at per round for a job that was lost. */
const ORPHAN_CHECKS_PER_ROUND = 20;

interface Reaped {
  /** Back to pending: to be queued again. */
  retried: string[];
  /** Every scan taken from a lost worker (retried or failed): its old job is to be ended. */
  abandoned: string[];
  /** Pending for longer than the stale window: candidates whose job may have been lost. */
  waiting: string[];
}

/**
 * Takes back scans whose worker died: each goes back to pending for another try, or fails with a
 * reason once it has had its tries. Every worker runs it; two at once take back each scan once,
 * since each update only matches rows still running. Also names the scans that have been pending
 * for longer than the stale window: a job queued while the database went away may never have been
 * stored, and the caller checks whether they still have one.
 */
export async function reapStaleScans(
  db: Db,
  now = new Date(),
  staleMs = STALE_HEARTBEAT_MS,
): Promise<Reaped> {
  const cutoff = new Date(now.getTime() - staleMs);
  const stale = and(eq(scans.status, 'running'), lt(scans.heartbeatAt, cutoff));
  const failed = await db
    .update(scans)
    .set({ status: 'failed', completedAt: now, error: WORKER_LOST_MESSAGE })
    .where(and(stale, gte(scans.attempts, MAX_SCAN_ATTEMPTS)))
    .returning({ id: scans.id });
  const retried = await db
    .update(scans)
    .set({ status: 'pending', progress: null, startedAt: null })
    .where(and(stale, lt(scans.attempts, MAX_SCAN_ATTEMPTS)))
    .returning({ id: scans.id });
  const waiting = await db
    .select({ id: scans.id })
    .from(scans)
    .where(and(eq(scans.status, 'pending'), lt(scans.createdAt, cutoff)))
    .orderBy(asc(scans.createdAt))
    .limit(ORPHAN_CHECKS_PER_ROUND);
  const retriedIds = retried.map((r) => r.id);
  return {
    retried: retriedIds,
    abandoned: [...failed.map((r) => r.id), ...retriedIds],
    waiting: waiting.map((r) => r.id).filter((id) => !retriedIds.includes(id)),
  };
}

/**
 * Every pending scan: a worker that starts queues each again, since its job may have been lost
 * (released at a shutdown, or queued while no worker ran).
 */
export async function pendingScanIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: scans.id }).from(scans).where(eq(scans.status, 'pending'));
  return rows.map((row) => row.id);
}
