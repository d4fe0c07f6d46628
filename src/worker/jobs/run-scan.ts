import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import type { EngineSettings } from '../../core/engine-settings.ts';
import { runScan } from '../../core/scans/run.ts';
import type { Db } from '../../db/client.ts';
import { type DatabaseOutage, whenDatabaseAnswers } from '../../db/outage.ts';
import { SEND_ALERT } from './send-alert.ts';

export const RUN_SCAN = 'run-scan';
/** Scans one worker process runs at once. */
export const WORKER_SCANS = 4;
/** A workspace at its concurrency limit: its next scan waits this long in the queue. */
const DEFERRED_DELAY_SECONDS = 5;

/** Scan jobs carry only the scan id: the scan row is the truth. */
export const RunScanPayload = z.object({ scanId: z.string().min(1) });

export async function registerRunScan(
  boss: PgBoss,
  db: Db,
  settings: EngineSettings,
  logger: Logger,
  context: {
    queue: ScanQueue;
    shutdown: AbortSignal;
    outage?: DatabaseOutage;
    alerts: boolean;
    /** Queues the deliveries of the tickets the scan changed. */
    dispatchTickets?: () => Promise<void>;
  },
): Promise<void> {
  await boss.work(
    RUN_SCAN,
    { pollingIntervalSeconds: 0.5, localConcurrency: WORKER_SCANS },
    async ([job]) => {
      if (!job) return;
      const { scanId } = RunScanPayload.parse(job.data);
      const { shutdown, outage } = context;
      const outcome = await runScan(db, scanId, settings, logger, { shutdown, outage });
      if (outcome === 'deferred') await context.queue.enqueue(scanId, DEFERRED_DELAY_SECONDS);
      if (outcome === 'completed') await context.dispatchTickets?.();
      if (outcome === 'completed' && context.alerts) {
        await whenDatabaseAnswers(() => boss.send(SEND_ALERT, { scanId }), { outage });
      }
    },
  );
}
