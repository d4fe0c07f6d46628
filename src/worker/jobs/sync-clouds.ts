import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AlertDeps } from '../../core/alerts/send-scan-alert.ts';
import {
  type CloudSyncSettings,
  dueCloudAccounts,
  runCloudSync,
} from '../../core/cloud-accounts/scheduled-sync.ts';
import type { Db } from '../../db/client.ts';

export const SYNC_CLOUD = 'sync-cloud';
const SYNC_CLOUDS_DUE = 'sync-clouds-due';

const SyncCloudPayload = z.object({ cloudAccountId: z.string().min(1) });

/** A job per cloud account read, and a minute's check for accounts due. */
export async function registerCloudSync(
  boss: PgBoss,
  db: Db,
  settings: CloudSyncSettings,
  logger: Logger,
  alerts?: AlertDeps,
): Promise<void> {
  await boss.work(SYNC_CLOUD, { localConcurrency: 2 }, async ([job]) => {
    if (!job) return;
    const { cloudAccountId } = SyncCloudPayload.parse(job.data);
    const read = await runCloudSync(db, cloudAccountId, settings, logger, new Date(), alerts);
    if (read) logger.info({ cloudAccountId, ...read }, 'cloud account read');
  });
  await boss.createQueue(SYNC_CLOUDS_DUE);
  await boss.schedule(SYNC_CLOUDS_DUE, '* * * * *');
  await boss.work(SYNC_CLOUDS_DUE, async () => {
    for (const cloudAccountId of await dueCloudAccounts(db, new Date(), settings.syncMinutes)) {
      await boss.send(SYNC_CLOUD, { cloudAccountId }, { singletonKey: cloudAccountId });
    }
  });
}
