import type { Db, Tx } from '../../db/client.ts';
import type { WorkspaceContext } from '../access.ts';
import { checkWithProvider, requireKey, type SealedKind } from './credentials.ts';
import { assertRoomFor, insertWithinLimit } from './room.ts';
import type { SecretsKey } from './secrets.ts';

/**
 * What every connect of a sealed credential does, in this order: the key to seal it with, room in
 * the workspace for one more of `kind`, the provider's check of the credential (one it refuses is
 * not stored), then `store` under the workspace's lock with the limit checked again. `store` gets
 * the transaction, the key and what the check answered, and audits in that transaction.
 */
export async function connectChecked<T, R>(
  db: Db,
  ctx: WorkspaceContext,
  kind: SealedKind,
  secrets: SecretsKey | undefined,
  provider: { check: () => Promise<T>; failure: (error: unknown) => 'refused' | 'unreachable' | undefined },
  store: (tx: Tx, key: Buffer, checked: T) => Promise<R>,
): Promise<R> {
  const key = requireKey(secrets, kind);
  const workspaceId = ctx.workspace.id;
  await assertRoomFor(db, kind, workspaceId);
  const checked = await checkWithProvider(kind, provider.check, provider.failure);
  return insertWithinLimit(db, kind, workspaceId, (tx) => store(tx, key, checked));
}
