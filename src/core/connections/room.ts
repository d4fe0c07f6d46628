import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { CONNECTION_MESSAGES } from '../../model/connections.ts';
import { ServiceError } from '../errors.ts';
import { type ConnectionKind, KINDS } from './kinds.ts';

/**
 * Refuses one more connection of `kind` where the workspace holds its limit already (409, the number
 * said). Asked before any outside call, so a full workspace contacts nobody, and again under the
 * workspace's lock where the row is inserted, so two at once cannot both pass.
 */
export async function assertRoomFor(db: Db, kind: ConnectionKind, workspaceId: string): Promise<void> {
  const k = KINDS[kind];
  const [held] = await db.select({ n: count() }).from(k.table).where(eq(k.workspaceId, workspaceId));
  if (Number(held?.n ?? 0) >= k.limit) {
    throw new ServiceError('conflict', k.limitCode, CONNECTION_MESSAGES.limit(k.limit, k.plural));
  }
}
