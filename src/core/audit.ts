import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import type { AuditAction } from '../model/activity.ts';
import type { WorkspaceContext } from './access.ts';

interface AuditEntry<A extends AuditAction = AuditAction> {
  userId: string;
  /** None for what concerns the account alone. */
  workspaceId?: string;
  action: A;
  detail?: Record<string, unknown>;
  /** The requester's address, when a request did it. */
  ip?: string;
}

/** What is recorded although nothing changed: it has no change to commit with. */
type ReadAction = Extract<AuditAction, 'data.exported'>;

/** What records a change, in the change's own transaction. */
export type ChangeAction = Exclude<AuditAction, ReadAction>;

async function insert(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    workspaceId: entry.workspaceId ?? null,
    action: entry.action,
    detail: entry.detail ?? {},
    ip: entry.ip && entry.ip !== 'unknown' ? entry.ip : null,
  });
}

/**
 * Records one change, in the change's own transaction: an entry is written if and only if its
 * change commits, so `tx` must be one (a plain Db does not compile).
 */
export function audit(tx: Tx, entry: AuditEntry<ChangeAction>): Promise<void> {
  return insert(tx, entry);
}

/** Records what someone read: nothing changed, so there is no transaction to join. */
export function auditRead(db: Db, entry: AuditEntry<ReadAction>): Promise<void> {
  return insert(db, entry);
}

/** Records what `ctx`'s actor changed in its workspace, in the change's own transaction. */
export function auditIn(
  tx: Tx,
  ctx: WorkspaceContext,
  action: ChangeAction,
  detail?: Record<string, unknown>,
): Promise<void> {
  const { userId, ip } = ctx.actor;
  return audit(tx, { userId, workspaceId: ctx.workspace.id, action, detail, ip });
}
