import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { OpenFindingCounts } from '../../model/contract.ts';

export const NO_OPEN_FINDINGS: OpenFindingCounts = { claimable: 0, likely: 0, review: 0, accepted: 0 };

/**
 * The open findings of each of the workspace's domains now, by status, the accepted ones apart:
 * what a domain's card, badge and totals count, whatever its last scan checked.
 */
export async function openFindingCounts(
  db: Db,
  workspaceId: string,
  domainNames: string[],
): Promise<Map<string, OpenFindingCounts>> {
  if (domainNames.length === 0) return new Map();
  const status = sql<string>`${findings.latest}->>'status'`;
  const accepted = sql<boolean>`${findings.acceptedAt} is not null`;
  const rows = await db
    .select({ domain: findings.domain, status, accepted, n: count() })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, workspaceId),
        inArray(findings.domain, domainNames),
        isNull(findings.resolvedAt),
      ),
    )
    .groupBy(findings.domain, status, accepted);
  const counts = new Map<string, OpenFindingCounts>();
  for (const row of rows) {
    const entry = counts.get(row.domain) ?? { ...NO_OPEN_FINDINGS };
    const bucket = row.accepted ? 'accepted' : (row.status as keyof OpenFindingCounts);
    if (bucket in entry) entry[bucket] += Number(row.n);
    counts.set(row.domain, entry);
  }
  return counts;
}

/** Open findings that are not accepted: the number a domain, the totals and the alerts show. */
export function openCount(counts: OpenFindingCounts): number {
  return counts.claimable + counts.likely + counts.review;
}
