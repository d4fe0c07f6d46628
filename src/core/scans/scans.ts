import { and, asc, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { scans, workerHeartbeats } from '../../db/schema.ts';
import type { ScanListResponse, ScanView } from '../../model/contract.ts';
import type { scanListQuerySchema } from '../../model/schemas.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { type ScanRow, scanView } from '../domains/views.ts';
import { ServiceError } from '../errors.ts';
import { mapRows, paged } from '../json-stream.ts';
import { parseInput } from '../validation.ts';

const scanIdSchema = z.uuid({ error: 'Scan ID is required' });

/** The workspace's own scan, else 404: another workspace's id answers exactly like a missing one. */
async function ownScan(db: Db, workspaceId: string, id: string): Promise<ScanRow> {
  const parsed = parseInput(scanIdSchema, id);
  const [row] = await db
    .select()
    .from(scans)
    .where(and(eq(scans.id, parsed), eq(scans.workspaceId, workspaceId)));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Scan not found');
  return row;
}

/** One of the workspace's scans, with the names it checked. */
export async function scanDetails(db: Db, ctx: WorkspaceContext, id: string): Promise<ScanView> {
  authorize(ctx, 'read');
  return scanView(await ownScan(db, ctx.workspace.id, id), { withSubdomains: true });
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
    eq(scans.workspaceId, sql.placeholder('workspaceId')),
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

/** A page of the workspace's scans, newest first, with the total that matches. */
export async function listScans(
  db: Db,
  ctx: WorkspaceContext,
  query: z.infer<typeof scanListQuerySchema>,
): Promise<ScanListResponse> {
  authorize(ctx, 'read');
  const filter = {
    workspaceId: ctx.workspace.id,
    status: query.status ?? null,
    pattern: query.q ? likeLiteral(query.q) : null,
  };
  const rows = await scanPageStatement(db).execute({ ...filter, limit: query.limit, offset: query.offset });
  const total =
    rows[0]?.total ??
    (query.offset === 0 ? 0 : Number((await scanCountStatement(db).execute(filter))[0]?.n ?? 0));
  return { scans: rows.map((row) => scanView(row)), total };
}

/** Scans read per query while an export is written. */
const EXPORT_PAGE = 100;

/** Every scan of a workspace, a page at a time (keyset paging), for exports that stream them. */
export function workspaceScans(
  db: Db,
  workspaceId: string,
  order: 'oldest' | 'newest',
): AsyncGenerator<ScanRow> {
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
          eq(scans.workspaceId, workspaceId),
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

/** The workspace's scans as the export writes them, newest first, with the names each checked. */
export function exportScans(db: Db, ctx: WorkspaceContext): AsyncGenerator<ScanView> {
  authorize(ctx, 'read');
  return mapRows(workspaceScans(db, ctx.workspace.id, 'newest'), (row) =>
    scanView(row, { withSubdomains: true }),
  );
}

/**
 * Cancels one of the workspace's scans: a pending one ends here; a running one is stopped by its
 * worker, which watches `cancelRequested`. A scan that already ended is a conflict.
 */
export async function cancelScan(db: Db, ctx: WorkspaceContext, id: string, now: Date): Promise<ScanView> {
  authorize(ctx, 'scans.start');
  const row = await ownScan(db, ctx.workspace.id, id);
  if (!['pending', 'running'].includes(row.status)) {
    throw new ServiceError('conflict', 'SCAN_FINISHED', `This scan has already ended (${row.status})`);
  }
  const [updated] = await db
    .update(scans)
    .set(
      row.status === 'pending'
        ? { status: 'cancelled', completedAt: now, cancelRequested: true, error: 'Cancelled by you' }
        : { cancelRequested: true },
    )
    .where(eq(scans.id, row.id))
    .returning();
  return scanView(updated ?? row);
}

/** The workspace's newest scan, if any. */
export async function latestScan(db: Db, ctx: WorkspaceContext): Promise<ScanView | null> {
  authorize(ctx, 'read');
  const [row] = await db
    .select()
    .from(scans)
    .where(eq(scans.workspaceId, ctx.workspace.id))
    .orderBy(desc(scans.createdAt))
    .limit(1);
  return row ? scanView(row) : null;
}

/** When a worker last said it was alive; undefined when none ever did. */
export async function latestWorkerHeartbeat(db: Db): Promise<Date | undefined> {
  const [row] = await db
    .select({ seenAt: workerHeartbeats.seenAt })
    .from(workerHeartbeats)
    .orderBy(desc(workerHeartbeats.seenAt))
    .limit(1);
  return row?.seenAt;
}
