import { and, count, eq, gte, isNotNull, isNull, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, findings, scans } from '../../db/schema.ts';
import { SCAN_STATUSES, type ScanStats, type ScanStatus } from '../../model/contract.ts';
import { authorize, type WorkspaceContext } from '../access.ts';

/** The workspace's scan figures: scans by status, issues open now and resolved, this month's usage. */
export async function scanStats(db: Db, ctx: WorkspaceContext, now: Date): Promise<ScanStats> {
  authorize(ctx, 'read');
  const workspaceId = ctx.workspace.id;
  const byStatus = await db
    .select({ status: scans.status, n: count() })
    .from(scans)
    .where(eq(scans.workspaceId, workspaceId))
    .groupBy(scans.status);
  const counts = Object.fromEntries(SCAN_STATUSES.map((s) => [s, 0])) as Record<ScanStatus, number>;
  for (const row of byStatus) {
    if (row.status in counts) counts[row.status as ScanStatus] = Number(row.n);
  }
  // Issues found are the findings open now and not accepted, not a sum over every scan's list.
  const [open] = await db
    .select({ n: count() })
    .from(findings)
    .where(
      and(eq(findings.workspaceId, workspaceId), isNull(findings.resolvedAt), isNull(findings.acceptedAt)),
    );
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [month] = await db
    .select({
      n: count(),
      names: sum(scans.subdomainsScanned),
      ct: count(sql`case when (${scans.config}->>'useCertificateTransparency')::boolean then 1 end`),
      validation: count(sql`case when (${scans.config}->>'useMultiStageValidation')::boolean then 1 end`),
    })
    .from(scans)
    .where(and(eq(scans.workspaceId, workspaceId), gte(scans.createdAt, monthStart)));
  const [domainCount] = await db
    .select({ n: count() })
    .from(domains)
    .where(eq(domains.workspaceId, workspaceId));
  const [resolved] = await db
    .select({ n: count() })
    .from(findings)
    .where(and(eq(findings.workspaceId, workspaceId), isNotNull(findings.resolvedAt)));
  const ended = counts.completed + counts.failed;
  return {
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    by_status: counts,
    success_rate: ended === 0 ? null : Math.round((counts.completed / ended) * 1000) / 10,
    issues_found: Number(open?.n ?? 0),
    issues_resolved: Number(resolved?.n ?? 0),
    domains_monitored: Number(domainCount?.n ?? 0),
    scans_this_month: Number(month?.n ?? 0),
    subdomains_scanned_this_month: Number(month?.names ?? 0),
    ct_lookups_this_month: Number(month?.ct ?? 0),
    validation_checks_this_month: Number(month?.validation ?? 0),
  };
}
