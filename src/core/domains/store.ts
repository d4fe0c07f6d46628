import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { domains, findings, scans } from '../../db/schema.ts';
import { SCAN_INTERVAL_MS } from '../../model/constants.ts';
import type {
  DomainListResponse,
  FindingRecord,
  ScanConfig,
  ScanListResponse,
} from '../../model/contract.ts';
import type { findingQuerySchema, scanListQuerySchema } from '../../model/schemas.ts';
import { ServiceError } from '../errors.ts';
import { paged } from '../json-stream.ts';
import { isUuid, parseInput } from '../validation.ts';
import { quotaView } from './quota.ts';
import { type DomainRow, domainView, findingRecord, type ScanRow, scanView } from './views.ts';

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
        .where(and(eq(domains.id, id), eq(domains.userId, userId)))
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
    .where(eq(domains.userId, user.id))
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

const scanIdSchema = z.uuid({ error: 'Scan ID is required' });

/** The caller's own scan, else 404: another user's id answers exactly like a missing one. */
export async function ownScan(db: Db, userId: string, id: string): Promise<ScanRow> {
  const parsed = parseInput(scanIdSchema, id);
  const [row] = await db
    .select()
    .from(scans)
    .where(and(eq(scans.id, parsed), eq(scans.userId, userId)));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Scan not found');
  return row;
}

/** LIKE patterns take the user's text literally. */
const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Every scan column a list shows (scanView without names): not the names, not the lookup errors. */
const { subdomains: _names, scanErrors: _errors, ...SCAN_LIST_COLUMNS } = getTableColumns(scans);

/**
 * The scan list's filter, one statement for every combination: a status or search term left out
 * is a null that matches every row (the user's own scans come first in the index either way).
 */
function scanListFilter() {
  const status = sql.placeholder('status');
  const pattern = sql.placeholder('pattern');
  return and(
    eq(scans.userId, sql.placeholder('userId')),
    sql`(${status}::text is null or ${scans.status} = ${status})`,
    sql`(${pattern}::text is null or ${scans.domain} ilike ${pattern} or ${scans.id}::text ilike ${pattern})`,
  );
}

/**
 * A page and, in the same round trip, the total that matches: the count is an uncorrelated
 * subquery, run once. Round trips, not PostgreSQL's work, are what a list request mostly costs.
 */
const scanPageStatement = preparedStatement('scan_page', (db) =>
  db
    .select({
      ...SCAN_LIST_COLUMNS,
      total: sql`(select count(*) from ${scans} where ${scanListFilter()})`.mapWith(Number),
    })
    .from(scans)
    .where(scanListFilter())
    .orderBy(desc(scans.createdAt), desc(scans.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset')),
);

/** The total alone, for a page past the end, which has no row to carry it. */
const scanCountStatement = preparedStatement('scan_count', (db) =>
  db.select({ n: count() }).from(scans).where(scanListFilter()),
);

/** A page of the user's scans, newest first, with the total that matches. */
export async function listScans(
  db: Db,
  userId: string,
  query: z.infer<typeof scanListQuerySchema>,
): Promise<ScanListResponse> {
  const filter = {
    userId,
    status: query.status ?? null,
    pattern: query.q ? likeLiteral(query.q) : null,
  };
  const rows = await scanPageStatement(db).execute({ ...filter, limit: query.limit, offset: query.offset });
  const total =
    rows[0]?.total ??
    (query.offset === 0 ? 0 : Number((await scanCountStatement(db).execute(filter))[0]?.n ?? 0));
  return { scans: rows.map((row) => scanView(row)), total };
}

/** The user's findings with their history, most recently seen first. */
export async function listFindings(
  db: Db,
  userId: string,
  query: z.infer<typeof findingQuerySchema>,
): Promise<{ findings: FindingRecord[] }> {
  const rows = await db
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.userId, userId),
        query.domain ? eq(findings.domain, query.domain.trim().toLowerCase()) : undefined,
        query.state === 'open' ? isNull(findings.resolvedAt) : undefined,
        query.state === 'resolved' ? isNotNull(findings.resolvedAt) : undefined,
      ),
    )
    .orderBy(desc(findings.lastSeenAt))
    .limit(1000);
  return { findings: rows.map(findingRecord) };
}

/** Scans read per query while an export is written. */
const EXPORT_PAGE = 100;

/** Every scan of a user, a page at a time (keyset paging), for exports that stream them. */
export function userScans(db: Db, userId: string, order: 'oldest' | 'newest'): AsyncGenerator<ScanRow> {
  // The key in milliseconds, as the Date that carries it back holds it: PostgreSQL keeps
  // microseconds, and a key compared at a finer grain than it was read would return its row again.
  const at = sql`date_trunc('milliseconds', ${scans.createdAt})`;
  const newest = order === 'newest';
  return paged<ScanRow>((after) =>
    db
      .select()
      .from(scans)
      .where(
        and(
          eq(scans.userId, userId),
          after
            ? newest
              ? sql`(${at}, ${scans.id}) < (${after.createdAt}, ${after.id})`
              : sql`(${at}, ${scans.id}) > (${after.createdAt}, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(...(newest ? [sql`${at} desc`, desc(scans.id)] : [at, asc(scans.id)]))
      .limit(EXPORT_PAGE),
  );
}
