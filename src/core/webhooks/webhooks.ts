import { randomBytes } from 'node:crypto';
import { desc, inArray } from 'drizzle-orm';
import type { AllowPrivate } from '../../connectors/http/address-guard.ts';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema.ts';
import type { WEBHOOK_FORMATS } from '../../model/contract.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { enableConnection } from '../connections/answerable.ts';
import { KINDS } from '../connections/kinds.ts';
import { ownRow, removeOwn, rowsOf } from '../connections/own.ts';
import { insertWithinLimit } from '../connections/room.ts';
import { queueTest, type TestQueue } from '../connections/test-queue.ts';
import { ServiceError } from '../errors.ts';
import { checkWebhookTarget } from './target.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Deliveries shown with the webhooks, newest first. */
const DELIVERY_LOG = 50;

/** The workspace's webhooks, oldest first, and the latest deliveries to any of them. */
export async function listWebhooks(db: Db, ctx: WorkspaceContext) {
  authorize(ctx, 'webhooks.manage');
  const hooks = await rowsOf(db, 'webhook', ctx.workspace.id);
  const deliveries = hooks.length
    ? await db
        .select()
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.webhookId,
            hooks.map((h) => h.id),
          ),
        )
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(DELIVERY_LOG)
    : [];
  return { hooks, deliveries };
}

/**
 * Adds a webhook whose URL resolves to a public address (checked before the workspace's lock is
 * taken: a slow name must not hold it), within the number of webhooks a workspace may have. Its
 * adder answers for the address: their removal, or a role below admin, disables it.
 */
export async function addWebhook(
  db: Db,
  ctx: WorkspaceContext,
  request: { url: string; format: (typeof WEBHOOK_FORMATS)[number] },
  target: { allowPrivate: AllowPrivate; resolvers?: string[] },
): Promise<WebhookRow> {
  authorize(ctx, 'webhooks.manage');
  const createdBy = ctx.actor.userId;
  const workspaceId = ctx.workspace.id;
  const checked = await checkWebhookTarget(request.url, target.allowPrivate, target.resolvers);
  if (!checked.ok) throw new ServiceError('invalid', 'VALIDATION_ERROR', checked.message);
  const row = await insertWithinLimit(db, 'webhook', workspaceId, async (tx) => {
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        workspaceId,
        url: checked.url.toString(),
        format: request.format,
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
        createdBy,
      })
      .returning();
    if (inserted) await auditIn(tx, ctx, 'webhook.added', KINDS.webhook.detail(inserted));
    return inserted;
  });
  if (!row) throw new Error('insert returned no webhook');
  return row;
}

export async function removeWebhook(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'webhooks.manage');
  await removeOwn(db, ctx, 'webhook', id);
}

/**
 * Re-enables one of the workspace's webhooks; whoever does it now answers for its address, as its
 * adder did (their own removal disables it again). Enabling one that is live changes nothing else.
 */
export async function enableWebhook(db: Db, ctx: WorkspaceContext, id: string): Promise<WebhookRow> {
  authorize(ctx, 'webhooks.manage');
  const row = await ownRow(db, 'webhook', ctx.workspace.id, id);
  await enableConnection(db, ctx, 'webhook', row.id, KINDS.webhook.detail(row));
  return ownRow(db, 'webhook', ctx.workspace.id, id);
}

/**
 * 'Send test': a test delivery to one of the workspace's webhooks, queued with `delivery.enqueue`
 * (none on a server without webhook delivery) after `delivery.counted` has counted the attempt
 * against its rate; none while the webhook is disabled.
 */
export async function sendTestDelivery(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  now: Date,
  delivery: TestQueue,
): Promise<DeliveryRow> {
  authorize(ctx, 'webhooks.manage');
  const webhook = await ownRow(db, 'webhook', ctx.workspace.id, id);
  return queueTest('webhook', webhook, ctx.workspace.id, delivery, async () => {
    const [row] = await db
      .insert(webhookDeliveries)
      .values({
        webhookId: webhook.id,
        kind: 'test',
        payload: {
          event: 'test',
          text: 'DangleWatch test delivery: this webhook works.',
          sentAt: now.toISOString(),
        },
      })
      .returning();
    return row;
  });
}
