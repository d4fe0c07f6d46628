import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, scans } from '../../db/schema.ts';
import type { DomainListResponse, DomainView } from '../../model/contract.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { ServiceError } from '../errors.ts';
import { openFindingCounts } from '../findings/open-state.ts';
import { isUuid } from '../validation.ts';
import { inventorySources } from './inventory-sources.ts';
import { quotaView } from './quota.ts';
import { type DomainRow, domainView, type ScanRow } from './views.ts';

/** 24 hex characters: 96 random bits, unguessable, one per user and domain. */
export function newVerificationToken(): string {
  return randomBytes(12).toString('hex');
}

/** The workspace's own domain, else 404: another workspace's id answers exactly like a missing one. */
export async function ownDomain(db: Db, workspaceId: string, id: string): Promise<DomainRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(domains)
        .where(and(eq(domains.id, id), eq(domains.workspaceId, workspaceId)))
    : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Domain not found');
  return row;
}

/** The latest scan of each of the given domains. */
export async function latestScans(db: Db, domainIds: string[]): Promise<Map<string, ScanRow>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([scans.domainId])
    .from(scans)
    .where(inArray(scans.domainId, domainIds))
    .orderBy(scans.domainId, desc(scans.createdAt));
  return new Map(rows.map((row) => [row.domainId as string, row]));
}

/**
 * The latest full scan of each of the given domains, where their latest scan is a change scan (a
 * zone's changed records only): what the card's scan panel shows beside it.
 */
async function fullScansBefore(db: Db, latest: Map<string, ScanRow>): Promise<Map<string, ScanRow>> {
  const partial = [...latest.values()].filter((scan) => scan.config?.names);
  if (partial.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([scans.domainId])
    .from(scans)
    .where(
      and(
        inArray(
          scans.domainId,
          partial.map((scan) => scan.domainId as string),
        ),
        sql`${scans.config}->'names' is null`,
      ),
    )
    .orderBy(scans.domainId, desc(scans.createdAt));
  return new Map(rows.map((row) => [row.domainId as string, row]));
}

/** Domains of one workspace as the dashboard shows them: with their latest scans and open findings. */
export async function domainViews(db: Db, workspaceId: string, rows: DomainRow[]): Promise<DomainView[]> {
  const [latest, open, sources] = await Promise.all([
    latestScans(
      db,
      rows.map((r) => r.id),
    ),
    openFindingCounts(
      db,
      workspaceId,
      rows.map((r) => r.domain),
    ),
    inventorySources(
      db,
      rows.filter((r) => r.inventorySource).map((r) => r.id),
    ),
  ]);
  const full = await fullScansBefore(db, latest);
  return rows.map((row) =>
    domainView(row, latest.get(row.id), open.get(row.domain), sources.get(row.id), full.get(row.id)),
  );
}

/** One domain as the dashboard shows it (see domainViews). */
export async function viewOfDomain(db: Db, row: DomainRow): Promise<DomainView> {
  const [view] = await domainViews(db, row.workspaceId, [row]);
  if (!view) throw new Error('no view of the domain');
  return view;
}

/** The workspace's domains with their latest scans, and the quota (GET /api/domains, GET /api/v1/domains). */
export async function listDomains(db: Db, ctx: WorkspaceContext, now: Date): Promise<DomainListResponse> {
  authorize(ctx, 'read');
  const { workspace } = ctx;
  const rows = await db
    .select()
    .from(domains)
    .where(eq(domains.workspaceId, workspace.id))
    .orderBy(asc(domains.createdAt));
  return { domains: await domainViews(db, workspace.id, rows), quota: await quotaView(db, workspace, now) };
}
