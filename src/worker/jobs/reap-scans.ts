import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { reapStaleScans, WORKER_LOST_MESSAGE } from '../../core/scans/reaper.ts';
import type { Db } from '../../db/client.ts';
import { type DatabaseOutage, isDatabaseUnavailable } from '../../db/outage.ts';
import { RUN_SCAN } from './run-scan.ts';

/** When the reaper looks for scans whose worker died, and how long a silent scan may stay running. */
export interface ReaperTimings {
  intervalMs: number;
  staleMs: number;
}

/** One round: scans taken back from lost workers get a new job, and so do pending scans whose job is gone. */
async function reap(boss: PgBoss, db: Db, queue: ScanQueue, staleMs: number, logger: Logger): Promise<void> {
  const { retried, abandoned, waiting } = await reapStaleScans(db, new Date(), staleMs);
  // The lost worker's job would stay 'active' in the queue until it expires (two hours): it is
  // ended now, before the scan gets its new job.
  for (const scanId of abandoned) {
    const lost = (await boss.findJobs(RUN_SCAN, { data: { scanId } })).filter((j) => j.state === 'active');
    if (lost.length)
      await boss.fail(
        RUN_SCAN,
        lost.map((j) => j.id),
        { reason: WORKER_LOST_MESSAGE },
      );
  }
  const orphaned: string[] = [];
  for (const scanId of waiting) {
    const live = (await boss.findJobs(RUN_SCAN, { data: { scanId } })).some((j) =>
      ['created', 'retry', 'active'].includes(j.state),
    );
    if (!live) orphaned.push(scanId);
  }
  for (const id of [...retried, ...orphaned]) await queue.enqueue(id);
  if (retried.length) logger.warn({ retried }, 'scans taken back from a lost worker');
  if (orphaned.length) logger.warn({ orphaned }, 'pending scans queued again');
}

/**
 * Every worker reaps on its own timer rather than through a pg-boss cron, whose finest step is a
 * minute: a test (and an impatient operator) can ask for seconds. Two reapers at once are harmless.
 * Answers a stop that waits for the round under way.
 */
export async function startReaper(
  boss: PgBoss,
  db: Db,
  queue: ScanQueue,
  timings: ReaperTimings,
  logger: Logger,
  outage?: DatabaseOutage,
): Promise<() => Promise<void>> {
  // Databases from before this hold the old cron job's queue and schedule, which would collect one
  // unworked job a minute: removed (a no-op once gone).
  await boss.deleteQueue('reap-scans');
  let reaping = Promise.resolve();
  const timer = setInterval(() => {
    reaping = reaping
      .then(() => reap(boss, db, queue, timings.staleMs, logger))
      .catch((error) =>
        isDatabaseUnavailable(error) && outage
          ? outage.failed(error, 'reaper')
          : logger.warn({ err: error }, 'reaping scans failed'),
      );
  }, timings.intervalMs);
  return async () => {
    clearInterval(timer);
    await reaping;
  };
}
