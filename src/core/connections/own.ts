import { and, asc, eq } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import type { WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';
import { type ConnectionKind, KINDS, type KindSpec, type RowOf } from './kinds.ts';

/** One of the workspace's connections of `kind`; another workspace's is not found, as a missing one. */
export async function ownRow<K extends ConnectionKind>(
  db: Db,
  kind: K,
  workspaceId: string,
  id: string,
): Promise<RowOf[K]> {
  const k = KINDS[kind];
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(k.table)
        .where(and(eq(k.id, id), eq(k.workspaceId, workspaceId)))
    : [];
  if (!row) {
    throw new ServiceError(
      'not-found',
      'NOT_FOUND',
      `${k.noun[0]?.toUpperCase()}${k.noun.slice(1)} not found`,
    );
  }
  return row as RowOf[K];
}

/** The workspace's connections of `kind`, oldest first. */
export async function rowsOf<K extends ConnectionKind>(
  db: Db,
  kind: K,
  workspaceId: string,
): Promise<RowOf[K][]> {
  const k = KINDS[kind];
  const rows = await db
    .select()
    .from(k.table)
    .where(eq(k.workspaceId, workspaceId))
    .orderBy(asc(k.createdAt));
  return rows as RowOf[K][];
}

/**
 * Removes one of the workspace's connections of `kind`: its credential (or secret) goes with the row
 * at once, and the removal is audited in the same transaction, in the kind's words.
 */
export async function removeOwn<K extends ConnectionKind>(
  db: Db,
  ctx: WorkspaceContext,
  kind: K,
  id: string,
): Promise<void> {
  const k: KindSpec<RowOf[K]> = KINDS[kind];
  const row = await ownRow(db, kind, ctx.workspace.id, id);
  await inTransaction(db, async (tx) => {
    await tx.delete(k.table).where(eq(k.id, row.id));
    await auditIn(tx, ctx, k.removed, k.detail(row));
  });
}

/** The API's view of one row, made by the kind's view of many (`views`), which answers one per row. */
export async function viewOfOne<R, V>(views: (rows: R[]) => Promise<V[]>, row: R): Promise<V> {
  const [view] = await views([row]);
  if (!view) throw new Error('a view of many answered none for one row');
  return view;
}
