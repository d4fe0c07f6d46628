import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { purgeStripeEvents } from '../../core/retention/stripe-events.ts';
import type { Db } from '../../db/client.ts';

export const PURGE_STRIPE_EVENTS = 'purge-stripe-events';

export async function registerPurgeStripeEvents(boss: PgBoss, db: Db, logger: Logger): Promise<void> {
  await boss.createQueue(PURGE_STRIPE_EVENTS);
  await boss.schedule(PURGE_STRIPE_EVENTS, '37 3 * * *');
  await boss.work(PURGE_STRIPE_EVENTS, async () => {
    logger.info({ deleted: await purgeStripeEvents(db) }, 'purged Stripe event ids past their replay window');
  });
}
