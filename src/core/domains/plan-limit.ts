import { and, asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { allowancesOfOwner } from '../workspaces/allowance.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';

/** Why a domain beyond the plan's number is not scanned, and what the owner can do. */
export const OVER_PLAN_LIMIT_MESSAGE =
  "Not scanned: this domain is beyond your plan's number of domains. Upgrade, or keep this domain instead of another.";

/**
 * Marks which domains each plan allowance of the workspace's owner covers and which are beyond it,
 * as after a downgrade: the ones the owner chose to keep (most recent choice first), then the
 * oldest. A Free allowance is counted across the owner's Free workspaces (allowance.ts), so a plan
 * change of one workspace can move domains of another. Those beyond are kept with their history
 * but not scanned; an upgrade brings them back, and their overdue scans run at the scheduler's
 * next round. Run whenever the plan or the list changes.
 */
export function applyDomainLimit(db: Db, workspaceId: string): Promise<void> {
  // Under the workspace's lock: a plan change and a 'keep' at once must not each mark half.
  return underWorkspaceLock(db, workspaceId, async (tx) => {
    for (const allowance of await allowancesOfOwner(tx, workspaceId)) {
      await markDomains(tx, allowance.workspaceIds, getPlanForTier(allowance.tier).limits.domains);
    }
  });
}

async function markDomains(db: Db, workspaceIds: string[], limit: number): Promise<void> {
  const rows = await db
    .select({ id: domains.id, over: domains.overPlanLimit })
    .from(domains)
    .where(inArray(domains.workspaceId, workspaceIds))
    .orderBy(sql`${domains.keptAt} desc nulls last`, asc(domains.createdAt), asc(domains.id));
  const mark = async (ids: string[], overPlanLimit: boolean) => {
    if (ids.length === 0) return;
    await db
      .update(domains)
      .set({ overPlanLimit })
      .where(and(inArray(domains.workspaceId, workspaceIds), inArray(domains.id, ids)));
  };
  await mark(
    rows
      .slice(0, limit)
      .filter((row) => row.over)
      .map((row) => row.id),
    false,
  );
  await mark(
    rows
      .slice(limit)
      .filter((row) => !row.over)
      .map((row) => row.id),
    true,
  );
}
