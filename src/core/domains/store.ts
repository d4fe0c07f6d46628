import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, scans } from '../../db/schema.ts';
import { SCAN_INTERVAL_MS } from '../../model/constants.ts';
import type { DomainListResponse, ScanConfig } from '../../model/contract.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';
import { quotaView } from './quota.ts';
import { type DomainRow, domainView, type ScanRow } from './views.ts';

/** 24 hex characters: 96 random bits, unguessable, one per user and domain. */
export function newVerificationToken(): string {
  return randomBytes(12).toString('hex');
}

/** When the schedule scans a domain next, after a scan at `last` (null: never, or manual only). */
export function nextScanAfter(config: ScanConfig, last: Date): Date | null {
  return config.scanFrequency === 'manual'
    ? null
    : new Date(last.getTime() + SCAN_INTERVAL_MS[config.scanFrequency]);
}

/** The caller's own domain, else 404: another user's id answers exactly like a missing one. */
export async function ownDomain(db: Db, userId: string, id: string): Promise<DomainRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(domains)
        .where(and(eq(domains.id, id), eq(domains.workspaceId, userId)))
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

/** The user's domains with their latest scans, and the quota (GET /api/domains, GET /api/v1/domains). */
export async function listDomains(
  db: Db,
  user: { id: string; tier: string },
  now: Date,
): Promise<DomainListResponse> {
  const rows = await db
    .select()
    .from(domains)
    .where(eq(domains.workspaceId, user.id))
    .orderBy(asc(domains.createdAt));
  const latest = await latestScans(
    db,
    rows.map((r) => r.id),
  );
  return {
    domains: rows.map((row) => domainView(row, latest.get(row.id))),
    quota: await quotaView(db, user, now),
  };
}
