import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import type { AuditAction } from '../model/activity.ts';
import type { WorkspaceContext } from './access.ts';

/**
 * Records one action: who did it (`userId`), in which workspace (none for what concerns the account
 * alone), and `ip`, the requester's address when a request did it.
 */
export async function audit(
  db: Db,
  entry: {
    userId: string;
    workspaceId?: string;
    action: AuditAction;
    detail?: Record<string, unknown>;
    ip?: string;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    workspaceId: entry.workspaceId ?? null,
    action: entry.action,
    detail: entry.detail ?? {},
    ip: entry.ip && entry.ip !== 'unknown' ? entry.ip : null,
  });
}

/** Records what `ctx`'s actor did in its workspace, inside the change's own transaction when `db` is one. */
export async function auditIn(
  db: Db,
  ctx: WorkspaceContext,
  action: AuditAction,
  detail?: Record<string, unknown>,
): Promise<void> {
  const { userId, ip } = ctx.actor;
  await audit(db, { userId, workspaceId: ctx.workspace.id, action, detail, ip });
}
