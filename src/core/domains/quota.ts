import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { domains, scans } from '../../db/schema.ts';
import type { QuotaView } from '../../model/contract.ts';
import { scanQuota } from '../../model/profile.ts';
import { allowanceOf } from '../workspaces/allowance.ts';

/** Monthly caps are the daily allowance for thirty days (Free: 1/day, 30/month). */
const DAYS_PER_MONTH = 30;

function startOfUtcDay(now: Date) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function startOfUtcMonth(now: Date, offset = 0) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

const requestedScansStatement = preparedStatement('requested_scans_since', (db) =>
  db
    .select({ n: count() })
    .from(scans)
    .where(
      and(
        eq(scans.workspaceId, sql.placeholder('workspaceId')),
        gte(scans.createdAt, sql.placeholder('since')),
        inArray(scans.trigger, ['manual', 'rescan']),
      ),
    ),
);

/** Scans a workspace asked for (manually or by re-scan) since a moment; scheduled ones ride free. */
async function requestedScansSince(db: Db, workspaceId: string, since: Date): Promise<number> {
  const [row] = await requestedScansStatement(db).execute({ workspaceId, since });
  return Number(row?.n ?? 0);
}

/** Requested scans since a moment in every workspace of an allowance (allowanceOf). */
async function scansSince(db: Db, workspaceIds: string[], since: Date): Promise<number> {
  if (workspaceIds.length === 1) return requestedScansSince(db, workspaceIds[0] as string, since);
  const [row] = await db
    .select({ n: count() })
    .from(scans)
    .where(
      and(
        inArray(scans.workspaceId, workspaceIds),
        gte(scans.createdAt, since),
        inArray(scans.trigger, ['manual', 'rescan']),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Today's requested scans against the workspace's plan: its allowance's, shared on Free. */
export async function scansToday(db: Db, workspace: { id: string; tier: string }, now: Date) {
  const shared = await allowanceOf(db, workspace);
  return scansSince(
    db,
    shared.map((w) => w.id),
    startOfUtcDay(now),
  );
}

/**
 * The plan's quota and its use, counted from real rows, limits from the one plan catalogue. On
 * Free, domains and requested scans are counted across every workspace sharing the allowance
 * (allowanceOf), which `sharedWith` names.
 */
export async function quotaView(
  db: Db,
  workspace: { id: string; tier: string },
  now: Date,
): Promise<QuotaView> {
  const shared = await allowanceOf(db, workspace);
  const ids = shared.map((w) => w.id);
  const [domainCount] = await db
    .select({ n: count() })
    .from(domains)
    .where(inArray(domains.workspaceId, ids));
  const today = await scansSince(db, ids, startOfUtcDay(now));
  const month = await scansSince(db, ids, startOfUtcMonth(now));
  const daily = scanQuota(workspace.tier, today, now);
  return {
    tier: workspace.tier,
    currentDomains: Number(domainCount?.n ?? 0),
    maxDomains: daily.maxDomains,
    scansUsedToday: today,
    maxScansPerDay: daily.daily,
    scansUsedThisMonth: month,
    maxScansPerMonth: daily.daily === null ? null : daily.daily * DAYS_PER_MONTH,
    resetDate: startOfUtcMonth(now, 1).toISOString(),
    sharedWith: shared.filter((w) => w.id !== workspace.id),
  };
}
