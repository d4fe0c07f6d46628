import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { purgeDeletedAccounts } from '../../core/account/delete-account.ts';
import { purgeIntegrationDeliveries } from '../../core/retention/integration-deliveries.ts';
import { purgeExpiredScans } from '../../core/retention/scans.ts';
import { purgeWebhookDeliveries } from '../../core/retention/webhook-deliveries.ts';
import type { Db } from '../../db/client.ts';

export const PURGE_SCANS = 'purge-scans';

/** The nightly purge of what has outlived its retention: scans, webhook and integration deliveries, account tombstones. */
export async function registerPurgeScans(boss: PgBoss, db: Db, logger: Logger): Promise<void> {
  await boss.createQueue(PURGE_SCANS);
  await boss.schedule(PURGE_SCANS, '17 3 * * *');
  await boss.work(PURGE_SCANS, async () => {
    logger.info({ deleted: await purgeExpiredScans(db) }, 'purged scans past their retention');
    logger.info(
      { deleted: await purgeWebhookDeliveries(db) },
      'purged webhook deliveries past their retention',
    );
    logger.info(
      { deleted: await purgeIntegrationDeliveries(db) },
      'purged integration deliveries past their retention',
    );
    logger.info({ deleted: await purgeDeletedAccounts(db) }, 'purged tombstones of deleted accounts');
  });
}
