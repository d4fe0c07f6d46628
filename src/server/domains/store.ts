import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, scans } from '../../db/schema.ts';
import { SCAN_INTERVAL_MS } from '../../lib/dashboard/constants.ts';
import type { ScanConfig } from '../../lib/dashboard/contract.ts';
import { ApiError } from '../errors.ts';
import type { DomainRow, ScanRow } from './views.ts';

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
  const [row] = /^[0-9a-f-]{36}$/i.test(id)
    ? await db
        .select()
        .from(domains)
        .where(and(eq(domains.id, id), eq(domains.userId, userId)))
    : [];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'Domain not found');
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
