import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { scans, workerHeartbeats } from '../db/schema.ts';
import type { ScanQueue } from '../server/domains/scan-requests.ts';
import { deliverWebhook, WEBHOOK_ATTEMPTS } from '../server/webhooks/deliver.ts';
import { registerPurgeRateLimits } from './jobs/purge-rate-limits.ts';
import { purgeExpiredScans } from './jobs/purge-scans.ts';
import { reapStaleScans } from './jobs/reap-scans.ts';
import { runScan } from './jobs/run-scan.ts';
import { scheduleDueScans } from './jobs/schedule-scans.ts';
import { type AlertDeps, sendScanAlert } from './jobs/send-alert.ts';
import { queueWebhookAlerts } from './jobs/webhook-alerts.ts';
import type { EngineSettings } from './scan-options.ts';

const RUN_SCAN = 'run-scan';
const SCHEDULE_SCANS = 'schedule-scans';
const REAP_SCANS = 'reap-scans';
const PURGE_SCANS = 'purge-scans';
const SEND_ALERT = 'send-alert';
const DELIVER_WEBHOOK = 'deliver-webhook';
/** Scans one worker process runs at once. */
const WORKER_SCANS = 4;
const HEARTBEAT_MS = 10_000;
/** A user at their concurrency limit: their next scan waits this long in the queue. */
const DEFERRED_DELAY_SECONDS = 5;

export interface Worker {
  boss: PgBoss;
  queue: ScanQueue;
  /** Queues one webhook delivery (its attempts and their retries). */
  enqueueDelivery: (deliveryId: string) => Promise<void>;
  isUp(): boolean;
  stop(): Promise<void>;
}

/**
 * The durable job queue (pg-boss) in the same database as everything else: jobs survive restarts,
 * and at scale several worker processes share them through SKIP LOCKED. Scan jobs carry only the
 * scan id; the scan row is the truth (claimed pending → running, so a job run twice does nothing).
 */
export async function startWorker(
  database: Database,
  logger: Logger,
  settings: EngineSettings,
  alerts?: AlertDeps,
): Promise<Worker> {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: database.pool.options.connectionString, max: 4 });
  let up = false;
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  up = true;
  const db = database.db;
  const queue: ScanQueue = {
    enqueue: async (scanId, delaySeconds = 0) => {
      await boss.send(RUN_SCAN, { scanId }, delaySeconds > 0 ? { startAfter: delaySeconds } : {});
    },
  };

  // Aborted at stop: running scans go back to pending instead of waiting for the reaper.
  const shutdown = new AbortController();
  await registerPurgeRateLimits(boss, db, logger);
  // Retries are the reaper's: a lost scan goes back to pending and gets a new job.
  await boss.createQueue(RUN_SCAN, { retryLimit: 0, expireInSeconds: 2 * 60 * 60 });
  await boss.work<{ scanId: string }>(
    RUN_SCAN,
    { pollingIntervalSeconds: 0.5, localConcurrency: WORKER_SCANS },
    async ([job]) => {
      if (!job) return;
      const outcome = await runScan(db, job.data.scanId, settings, logger, { shutdown: shutdown.signal });
      if (outcome === 'deferred') await queue.enqueue(job.data.scanId, DEFERRED_DELAY_SECONDS);
      if (outcome === 'completed' && alerts) await boss.send(SEND_ALERT, { scanId: job.data.scanId });
    },
  );

  const enqueueDelivery = async (deliveryId: string) => {
    await boss.send(DELIVER_WEBHOOK, { deliveryId });
  };
  // A receiver that is down for a while: retried with growing delays; the last attempt gives up.
  await boss.createQueue(DELIVER_WEBHOOK, {
    retryLimit: WEBHOOK_ATTEMPTS - 1,
    retryDelay: 10,
    retryBackoff: true,
  });
  await boss.work<{ deliveryId: string }>(DELIVER_WEBHOOK, async ([job]) => {
    if (!job) return;
    const outcome = await deliverWebhook(db, job.data.deliveryId, {
      allowPrivate: settings.allowPrivate,
      logger,
    });
    if (outcome === 'retry') throw new Error('webhook delivery will be retried');
  });

  // An SMTP server that is down for a while: retried with growing delays, then given up (logged).
  await boss.createQueue(SEND_ALERT, { retryLimit: 5, retryDelay: 30, retryBackoff: true });
  if (alerts) {
    await boss.work<{ scanId: string }>(SEND_ALERT, async ([job]) => {
      if (!job) return;
      await queueWebhookAlerts(db, job.data.scanId, {
        publicUrl: alerts.publicUrl,
        enqueue: enqueueDelivery,
      });
      await sendScanAlert(db, job.data.scanId, alerts, logger);
    });
  }

  await boss.createQueue(SCHEDULE_SCANS);
  await boss.schedule(SCHEDULE_SCANS, '* * * * *');
  await boss.work(SCHEDULE_SCANS, async () => {
    const started = await scheduleDueScans(db, queue, logger, { resolvers: settings.resolvers });
    if (started) logger.info({ started }, 'scheduled scans started');
  });

  await boss.createQueue(REAP_SCANS);
  await boss.schedule(REAP_SCANS, '* * * * *');
  await boss.work(REAP_SCANS, async () => {
    const retried = await reapStaleScans(db);
    for (const id of retried) await queue.enqueue(id);
    if (retried.length) logger.warn({ retried }, 'scans taken back from a lost worker');
  });

  await boss.createQueue(PURGE_SCANS);
  await boss.schedule(PURGE_SCANS, '17 3 * * *');
  await boss.work(PURGE_SCANS, async () => {
    logger.info({ deleted: await purgeExpiredScans(db) }, 'purged scans past their retention');
  });

  // Pending scans whose job was lost (released at a shutdown, or queued while no worker ran) get
  // a job again; a scan that already has one only sees a second claim fail.
  for (const pending of await db.select({ id: scans.id }).from(scans).where(eq(scans.status, 'pending'))) {
    await queue.enqueue(pending.id);
  }

  const id = `${hostname()}:${process.pid}`;
  const beat = () =>
    db
      .insert(workerHeartbeats)
      .values({ id, seenAt: new Date() })
      .onConflictDoUpdate({ target: workerHeartbeats.id, set: { seenAt: new Date() } })
      .catch((error) => logger.warn({ err: error }, 'worker heartbeat failed'));
  await beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);

  return {
    boss,
    queue,
    enqueueDelivery,
    isUp: () => up,
    stop: async () => {
      clearInterval(heartbeat);
      up = false;
      shutdown.abort();
      await boss.stop({ graceful: true, timeout: 10_000 });
      await db
        .delete(workerHeartbeats)
        .where(eq(workerHeartbeats.id, id))
        .catch(() => {});
    },
  };
}
