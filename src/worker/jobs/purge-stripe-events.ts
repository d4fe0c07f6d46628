import { lt } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { stripeEvents } from '../../db/schema.ts';

export const PURGE_STRIPE_EVENTS = 'purge-stripe-events';

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

export async function registerPurgeStripeEvents(boss: PgBoss, db: Db, logger: Logger): Promise<void> {
  await boss.createQueue(PURGE_STRIPE_EVENTS);
  await boss.schedule(PURGE_STRIPE_EVENTS, '37 3 * * *');
  await boss.work(PURGE_STRIPE_EVENTS, async () => {
    logger.info({ deleted: await purgeStripeEvents(db) }, 'purged Stripe event ids past their replay window');
  });
}
