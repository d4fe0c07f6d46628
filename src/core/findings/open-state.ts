import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { OpenFindingCounts } from '../../model/contract.ts';
import { openFindingsAt } from '../../model/open-findings.ts';

/**
 * The open findings of each of the workspace's domains now, by status, the accepted ones apart:
 * what a domain's card, badge and totals count, whatever its last scan checked. Reckoned by the
 * model's openFindingsAt, as the trend's points are.
 */
export async function openFindingCounts(
  db: Db,
  workspaceId: string,
  domainNames: string[],
): Promise<Map<string, OpenFindingCounts>> {
  if (domainNames.length === 0) return new Map();
  const rows = await db
    .select({
      domain: findings.domain,
      status: sql<string>`${findings.latest}->>'status'`,
      firstSeenAt: findings.firstSeenAt,
      resolvedAt: findings.resolvedAt,
      acceptedAt: findings.acceptedAt,
    })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, workspaceId),
        inArray(findings.domain, domainNames),
        isNull(findings.resolvedAt),
      ),
    );
  const byDomain = new Map<string, typeof rows>();
  for (const row of rows) byDomain.set(row.domain, [...(byDomain.get(row.domain) ?? []), row]);
  return new Map([...byDomain].map(([domain, states]) => [domain, openFindingsAt(states)]));
}
