import { and, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { scans } from '../../db/schema.ts';

/**
 * A running scan whose heartbeat (written every second while it runs) is older than this has lost
 * its worker (killed, crashed). SCAN_STALE_SECONDS overrides it.
 */
export const STALE_HEARTBEAT_MS = 90_000;
/** How often each worker looks for such scans. SCAN_REAP_INTERVAL_SECONDS overrides it. */
export const REAP_INTERVAL_MS = 60_000;
/** Claims a scan may have; after that a lost scan fails instead of running again. */
export const MAX_SCAN_ATTEMPTS = 2;
export const WORKER_LOST_MESSAGE =
  'The scan stopped because the worker running it went away (restart or crash). Please run it again.';

/**
 * Takes back scans whose worker died: each goes back to pending for another try, or fails with a
 * reason once it has had its tries. Returns the ids to queue again. Every worker runs it; two at
 * once take back each scan once, since each update only matches rows still running.
 */
export async function reapStaleScans(
  db: Db,
  now = new Date(),
  staleMs = STALE_HEARTBEAT_MS,
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - staleMs);
  const stale = and(eq(scans.status, 'running'), lt(scans.heartbeatAt, cutoff));
  await db
    .update(scans)
    .set({ status: 'failed', completedAt: now, error: WORKER_LOST_MESSAGE })
    .where(and(stale, gte(scans.attempts, MAX_SCAN_ATTEMPTS)));
  const retried = await db
    .update(scans)
    .set({ status: 'pending', progress: null, startedAt: null })
    .where(and(stale, lt(scans.attempts, MAX_SCAN_ATTEMPTS)))
    .returning({ id: scans.id });
  return retried.map((r) => r.id);
}
