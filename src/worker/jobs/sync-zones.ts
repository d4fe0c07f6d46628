import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AlertDeps } from '../../core/alerts/send-scan-alert.ts';
import {
  dueConnections,
  runZoneSync,
  type ZoneSyncSettings,
} from '../../core/dns-connections/scheduled-sync.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import type { Db } from '../../db/client.ts';

export const SYNC_ZONE = 'sync-zone';
const SYNC_DUE = 'sync-zones-due';

const SyncZonePayload = z.object({ connectionId: z.string().min(1) });

/** A job per connection read, and a minute's check for connections due. */
export async function registerZoneSync(
  boss: PgBoss,
  db: Db,
  queue: ScanQueue,
  settings: ZoneSyncSettings,
  logger: Logger,
  alerts?: AlertDeps,
): Promise<void> {
  await boss.work(SYNC_ZONE, { localConcurrency: 2 }, async ([job]) => {
    if (!job) return;
    const { connectionId } = SyncZonePayload.parse(job.data);
    const started = await runZoneSync(db, queue, connectionId, settings, logger, new Date(), alerts);
    if (started) logger.info({ connectionId, started }, 'scans of changed records started');
  });
  await boss.createQueue(SYNC_DUE);
  await boss.schedule(SYNC_DUE, '* * * * *');
  await boss.work(SYNC_DUE, async () => {
    for (const connectionId of await dueConnections(db, new Date(), settings.syncMinutes)) {
      await boss.send(SYNC_ZONE, { connectionId }, { singletonKey: connectionId });
    }
  });
}
