import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

/** Every action the audit log records; the data export and the tests iterate over this list. */
export const AUDIT_ACTIONS = [
  'account.signed_in',
  'domain.added',
  'domain.verified',
  'domain.removed',
  'scan.started',
  'plan.changed',
  'subscription.canceled',
  'data.exported',
  'api_key.created',
  'api_key.revoked',
  'dns.connected',
  'dns.zone_monitored',
  'dns.disconnected',
  'workspace.created',
  'workspace.renamed',
  'workspace.deleted',
  'member.invited',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.removed',
  'finding.accepted',
  'finding.reopened',
] as const;

type AuditAction = (typeof AUDIT_ACTIONS)[number];

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
