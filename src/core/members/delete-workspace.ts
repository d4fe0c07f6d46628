import { eq, inArray, sql } from 'drizzle-orm';
import { type Db, inTransaction, queryRows } from '../../db/client.ts';
import { dnsConnections, scans, webhookDeliveries, webhooks, workspaces } from '../../db/schema.ts';
import { WORKSPACE_MESSAGES } from '../../model/workspaces.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { audit } from '../audit.ts';
import { assertBillingSettled, deleteStripeCustomers } from '../billing/closing.ts';
import type { Billing } from '../billing/stripe.ts';
import { applyDomainLimit } from '../domains/plan-limit.ts';
import { ServiceError } from '../errors.ts';
import { workspaceOwner } from '../workspaces/workspaces.ts';

/**
 * Deletes the workspaces `ids` name and everything they own. The rows go by the foreign keys'
 * cascade (domains and their records, scans, findings, DNS connections, webhooks and their
 * deliveries, API keys, invitations, memberships, the workspace's audit log); what no key ties to
 * a workspace goes here: its queued jobs and its rate-limit counters. Run inside a transaction.
 */
export async function deleteWorkspaceRows(tx: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const scanIds = tx
    .select({ id: sql`${scans.id}::text` })
    .from(scans)
    .where(inArray(scans.workspaceId, ids));
  const deliveryIds = tx
    .select({ id: sql`${webhookDeliveries.id}::text` })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(inArray(webhooks.workspaceId, ids));
  const connectionIds = tx
    .select({ id: sql`${dnsConnections.id}::text` })
    .from(dnsConnections)
    .where(inArray(dnsConnections.workspaceId, ids));
  // The queue lives in the same database once a worker has run (pg-boss's own schema).
  const [queue] = await queryRows<{ exists: boolean }>(
    tx,
    sql`select to_regclass('pgboss.job') is not null as exists`,
  );
  if (queue?.exists) {
    await tx.execute(
      sql`delete from pgboss.job where data->>'scanId' in (${scanIds}) or data->>'deliveryId' in (${deliveryIds}) or data->>'connectionId' in (${connectionIds})`,
    );
  }
  // Counters of a workspace (the public API's calls of its keys) are keyed '<name>:<workspace id>'.
  for (const id of ids) {
    const suffix = `:${id}`;
    await tx.execute(sql`delete from rate_limits where right(key, ${suffix.length}) = ${suffix}`);
  }
  await tx.delete(workspaces).where(inArray(workspaces.id, ids));
}

/**
 * Deletes a team workspace and everything it owns, for its owner. A personal workspace goes only
 * with its account. The deletion is recorded in the owner's own audit log (no workspace: the
 * workspace's log goes with it, see docs/decisions.md).
 */
export async function deleteWorkspace(
  db: Db,
  billing: Billing | undefined,
  ctx: WorkspaceContext,
): Promise<void> {
  authorize(ctx, 'workspace.manage');
  const { workspace, actor } = ctx;
  if (workspace.personal) {
    throw new ServiceError('conflict', 'PERSONAL_WORKSPACE', WORKSPACE_MESSAGES.personalDelete);
  }
  // A renewing subscription is cancelled first; then the Stripe customer goes before any row, so
  // that if Stripe fails nothing is gone yet, as for an account.
  await assertBillingSettled(db, [workspace.id]);
  await deleteStripeCustomers(db, billing, [workspace.id]);
  const owner = await workspaceOwner(db, workspace.id);
  await inTransaction(db, async (tx) => {
    await deleteWorkspaceRows(tx, [workspace.id]);
    await audit(tx, {
      userId: ctx.actor.userId,
      action: 'workspace.deleted',
      detail: { workspaceId: workspace.id, name: workspace.name },
      ip: actor.ip,
    });
  });
  // On Free its domains held places of its owner's Free allowance, which the others may take now.
  if (owner) await applyDomainLimit(db, owner);
}
