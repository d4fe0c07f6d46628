import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { stripeEvents } from '../../db/schema.ts';

/**
 * How long a Stripe event id is kept to recognise a replay. Stripe retries a failed delivery for
 * up to three days and lets an operator resend an event for thirty: past that nothing can
 * deliver it again.
 */
export const STRIPE_EVENT_RETENTION_DAYS = 30;

export async function purgeStripeEvents(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - STRIPE_EVENT_RETENTION_DAYS * 86_400_000);
  const deleted = await db
    .delete(stripeEvents)
    .where(lt(stripeEvents.receivedAt, cutoff))
    .returning({ id: stripeEvents.id });
  return deleted.length;
}
