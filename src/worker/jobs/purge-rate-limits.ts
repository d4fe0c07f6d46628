import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { purgeRateLimits } from '../../core/retention/rate-limits.ts';
import type { Db } from '../../db/client.ts';

export const PURGE_RATE_LIMITS = 'purge-rate-limits';

export async function registerPurgeRateLimits(boss: PgBoss, db: Db, logger: Logger): Promise<void> {
  await boss.createQueue(PURGE_RATE_LIMITS);
  await boss.schedule(PURGE_RATE_LIMITS, '*/15 * * * *');
  await boss.work(PURGE_RATE_LIMITS, async () => {
    const count = await purgeRateLimits(db);
    logger.debug({ count }, 'purged ended rate-limit windows');
  });
}
