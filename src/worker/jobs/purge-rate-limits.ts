import { lt, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { rateLimits } from '../../db/schema.ts';

export const PURGE_RATE_LIMITS = 'purge-rate-limits';

/** Deletes rate-limit windows that have ended; each client address would otherwise keep a row forever. */
export async function purgeRateLimits(db: Db): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.resetAt, sql`now()`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}

export async function registerPurgeRateLimits(boss: PgBoss, db: Db, logger: Logger): Promise<void> {
  await boss.createQueue(PURGE_RATE_LIMITS);
  await boss.schedule(PURGE_RATE_LIMITS, '*/15 * * * *');
  await boss.work(PURGE_RATE_LIMITS, async () => {
    const count = await purgeRateLimits(db);
    logger.debug({ count }, 'purged ended rate-limit windows');
  });
}
