import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { scans } from '../../db/schema.ts';
import { USER_CONCURRENT_SCANS } from '../../model/constants.ts';
import type { ScanRow } from '../domains/views.ts';

/**
 * Claims a pending scan for a run (pending → running, one more attempt), unless its workspace
 * already runs as many scans as one workspace may at once: then 'deferred', and the scan stays
 * pending for a later try. Undefined when the scan is no longer there to claim (claimed by
 * another worker, or cancelled).
 */
export async function claimScan(
  db: Db,
  pending: Pick<ScanRow, 'id' | 'workspaceId'>,
  startedAt: Date,
): Promise<ScanRow | 'deferred' | undefined> {
  // Count and claim under a lock per workspace: two workers claiming two scans of one workspace
  // at once would each see a free slot and go past the limit together.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${pending.workspaceId}))`);
    const [busy] = await tx
      .select({ n: count() })
      .from(scans)
      .where(and(eq(scans.workspaceId, pending.workspaceId), eq(scans.status, 'running')));
    if (Number(busy?.n ?? 0) >= USER_CONCURRENT_SCANS) return 'deferred' as const;
    const [row] = await tx
      .update(scans)
      .set({
        status: 'running',
        startedAt,
        heartbeatAt: startedAt,
        attempts: sql`${scans.attempts} + 1`,
        progress: { stage: 'discover', checked: 0, total: 0 },
      })
      .where(and(eq(scans.id, pending.id), eq(scans.status, 'pending'), eq(scans.cancelRequested, false)))
      .returning();
    return row;
  });
}
