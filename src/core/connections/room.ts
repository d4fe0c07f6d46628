import { count, eq, sql } from 'drizzle-orm';
import { type Db, inTransaction, type Tx } from '../../db/client.ts';
import { CONNECTION_MESSAGES } from '../../model/connections.ts';
import { ServiceError } from '../errors.ts';
import { type ConnectionKind, KINDS } from './kinds.ts';

/**
 * Refuses one more connection of `kind` where the workspace holds its limit already (409, the number
 * said). Asked before any outside call, so a full workspace contacts nobody, and again where the row
 * is inserted (insertWithinLimit).
 */
export async function assertRoomFor(db: Db, kind: ConnectionKind, workspaceId: string): Promise<void> {
  const k = KINDS[kind];
  const [held] = await db.select({ n: count() }).from(k.table).where(eq(k.workspaceId, workspaceId));
  if (Number(held?.n ?? 0) >= k.limit) {
    throw new ServiceError('conflict', k.limitCode, CONNECTION_MESSAGES.limit(k.limit, k.plural));
  }
}

/**
 * Inserts one more connection of `kind` (`insert`, in the transaction it is given) while the
 * workspace's row is locked and the limit checked again: two connects at once cannot both pass.
 */
export function insertWithinLimit<T>(
  db: Db,
  kind: ConnectionKind,
  workspaceId: string,
  insert: (tx: Tx) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select id from workspaces where id = ${workspaceId} for update`);
    await assertRoomFor(tx, kind, workspaceId);
    return insert(tx);
  });
}
