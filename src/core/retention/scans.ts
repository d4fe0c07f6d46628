import { and, eq, inArray, lt, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { scans, workspaces } from '../../db/schema.ts';
import { getPlan, PLANS } from '../../model/plans.ts';
import { workspaceTierSql } from '../workspaces/workspaces.ts';

const DAY_MS = 24 * 60 * 60_000;

/** Deletes scans older than their owner's plan keeps them (the plan catalogue's retention). */
export async function purgeExpiredScans(db: Db, now = new Date()): Promise<number> {
  let deleted = 0;
  const known = PLANS.map((p) => p.id);
  const groups = [
    ...PLANS.map((plan) => ({
      days: plan.limits.retentionDays,
      tiers: eq(workspaceTierSql(workspaces.id), plan.id),
    })),
    // Tiers the catalogue does not know keep what the free plan keeps.
    { days: getPlan('free').limits.retentionDays, tiers: notInArray(workspaceTierSql(workspaces.id), known) },
  ];
  for (const { days, tiers } of groups) {
    const owners = db.select({ id: workspaces.id }).from(workspaces).where(tiers);
    const rows = await db
      .delete(scans)
      .where(
        and(inArray(scans.workspaceId, owners), lt(scans.createdAt, new Date(now.getTime() - days * DAY_MS))),
      )
      .returning({ id: scans.id });
    deleted += rows.length;
  }
  return deleted;
}
