import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { scheduleDueScans } from '../../core/domains/scheduled-scans.ts';
import type { Db } from '../../db/client.ts';

export const SCHEDULE_SCANS = 'schedule-scans';

/**
 * Every minute, the scans that are due are started. Whichever worker takes the job runs the pass;
 * a pass still running elsewhere makes this one leave (the pass holds a lease), and no pass outlasts
 * the minute.
 */
export async function registerScheduleScans(
  boss: PgBoss,
  db: Db,
  queue: ScanQueue,
  resolvers: string[] | undefined,
  logger: Logger,
): Promise<void> {
  await boss.createQueue(SCHEDULE_SCANS);
  await boss.schedule(SCHEDULE_SCANS, '* * * * *');
  await boss.work(SCHEDULE_SCANS, async () => {
    const pass = await scheduleDueScans(db, queue, logger, { resolvers });
    if (pass.busy) logger.info('scheduling pass skipped: another one is running');
    else if (pass.reached > 0) logger.info(pass, 'scheduled scans started');
  });
}
