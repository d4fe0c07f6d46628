import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema.ts';
import type { WEBHOOK_FORMATS } from '../../model/contract.ts';
import { WEBHOOK_MESSAGES } from '../../model/webhooks.ts';
import type { AllowPrivate } from '../../scanner/net/address-guard.ts';
import { ServiceError } from '../errors.ts';
import { WEBHOOK_LIMIT } from '../limits.ts';
import { isUuid } from '../validation.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';
import { checkWebhookTarget } from './target.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Deliveries shown with the webhooks, newest first. */
const DELIVERY_LOG = 50;

/** The user's webhooks, oldest first, and the latest deliveries to any of them. */
export async function listWebhooks(db: Db, userId: string) {
  const hooks = await db
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, userId))
    .orderBy(webhooks.createdAt);
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

/** One of the user's webhooks, or not found: another user's id is not revealed. */
export async function ownWebhook(db: Db, userId: string, id: string): Promise<WebhookRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, userId)))
    : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Webhook not found');
  return row;
}

/**
 * Adds a webhook whose URL resolves to a public address (checked before the account's lock is
 * taken: a slow name must not hold it), within the number of webhooks an account may have.
 */
export async function addWebhook(
  db: Db,
  userId: string,
  /** Who adds it: their removal, or a role below admin, disables it. */
  createdBy: string,
  request: { url: string; format: (typeof WEBHOOK_FORMATS)[number] },
  target: { allowPrivate: AllowPrivate; resolvers?: string[] },
): Promise<WebhookRow> {
  const checked = await checkWebhookTarget(request.url, target.allowPrivate, target.resolvers);
  if (!checked.ok) throw new ServiceError('invalid', 'VALIDATION_ERROR', checked.message);
  const row = await underWorkspaceLock(db, userId, async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.workspaceId, userId));
    if (Number(existing?.n ?? 0) >= WEBHOOK_LIMIT) {
      throw new ServiceError('conflict', 'WEBHOOK_LIMIT', `You can add at most ${WEBHOOK_LIMIT} webhooks`);
    }
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        workspaceId: userId,
        url: checked.url.toString(),
        format: request.format,
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
        createdBy,
      })
      .returning();
    return inserted;
  });
  if (!row) throw new Error('insert returned no webhook');
  return row;
}

export async function removeWebhook(db: Db, userId: string, id: string): Promise<void> {
  const row = await ownWebhook(db, userId, id);
  await db.delete(webhooks).where(eq(webhooks.id, row.id));
}

/**
 * Disables the live webhooks `userId` added, in one workspace or (`workspaceId` undefined: the
 * account goes) in all: they chose where the workspace's findings go, and once they leave it, or
 * no longer manage its webhooks, nobody vouches for that address any more. Disabled, not deleted:
 * an admin sees why and re-enables what the workspace still trusts. Answers those it disabled.
 */
export function disableWebhooksAddedBy(
  db: Db,
  workspaceId: string | undefined,
  userId: string,
  reason: string,
  now: Date,
): Promise<WebhookRow[]> {
  return db
    .update(webhooks)
    .set({ disabledAt: now, disabledReason: reason })
    .where(
      and(
        workspaceId === undefined ? undefined : eq(webhooks.workspaceId, workspaceId),
        eq(webhooks.createdBy, userId),
        isNull(webhooks.disabledAt),
      ),
    )
    .returning();
}

/**
 * Re-enables one of the workspace's webhooks; whoever does it now answers for its address, as its
 * adder did (their own removal disables it again). Enabling one that is live changes nothing else.
 */
export async function enableWebhook(
  db: Db,
  workspaceId: string,
  id: string,
  actorId: string,
): Promise<WebhookRow> {
  const row = await ownWebhook(db, workspaceId, id);
  if (!row.disabledAt) return row;
  const [enabled] = await db
    .update(webhooks)
    .set({ disabledAt: null, disabledReason: null, createdBy: actorId })
    .where(eq(webhooks.id, row.id))
    .returning();
  return enabled ?? row;
}

/** A test delivery to one of the user's webhooks, stored to be queued by the caller; none while disabled. */
export async function createTestDelivery(db: Db, webhook: WebhookRow, now: Date): Promise<DeliveryRow> {
  if (webhook.disabledAt)
    throw new ServiceError('conflict', 'WEBHOOK_DISABLED', WEBHOOK_MESSAGES.disabledTest);
  const [delivery] = await db
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
  if (!delivery) throw new Error('insert returned no delivery');
  return delivery;
}
