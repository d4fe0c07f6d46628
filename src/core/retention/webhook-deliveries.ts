import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries } from '../../db/schema.ts';

/**
 * How long a webhook delivery (its payload, attempts and the receiver's answer) is kept: the
 * settings screen shows the recent ones, and a month covers any question about a missed alert.
 */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;

export async function purgeWebhookDeliveries(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400_000);
  const deleted = await db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.createdAt, cutoff))
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}
