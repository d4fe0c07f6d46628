import { and, asc, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import { EXPIRING_SOON_DAYS, UNTIL_RECORD_CHANGES } from '../../model/acceptance.ts';

/**
 * The workspace's acceptances that end within the next 7 days, soonest first: what the weekly
 * summary lists so nobody is surprised by a finding coming back.
 */
export async function acceptancesExpiringSoon(db: Db, workspaceId: string, now: Date) {
  const horizon = new Date(now.getTime() + EXPIRING_SOON_DAYS * 24 * 60 * 60 * 1000);
  const rows = await db
    .select({
      id: findings.id,
      domain: findings.domain,
      subdomain: findings.subdomain,
      by: findings.acceptedBy,
      note: findings.acceptedNote,
      until: findings.acceptedUntil,
    })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, workspaceId),
        isNotNull(findings.acceptedAt),
        isNull(findings.resolvedAt),
        gt(findings.acceptedUntil, now),
        lte(findings.acceptedUntil, horizon),
      ),
    )
    .orderBy(asc(findings.acceptedUntil));
  return rows.map((r) => ({ ...r, until: r.until?.toISOString() ?? UNTIL_RECORD_CHANGES }));
}
