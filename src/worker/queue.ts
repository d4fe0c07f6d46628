import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { purgeDeletedAccounts } from '../core/account/delete-account.ts';
import type { ScanQueue } from '../core/domains/scan-requests.ts';
import { deliverWebhook, WEBHOOK_ATTEMPTS } from '../core/webhooks/deliver.ts';
import type { Database } from '../db/client.ts';
import { isDatabaseUnavailable, whenDatabaseAnswers } from '../db/outage.ts';
import { scans, workerHeartbeats } from '../db/schema.ts';
import { REAP_INTERVAL_MS, STALE_HEARTBEAT_MS } from '../model/constants.ts';
import type { EngineSettings } from './engine-settings.ts';
import { registerPurgeRateLimits } from './jobs/purge-rate-limits.ts';
import { purgeExpiredScans } from './jobs/purge-scans.ts';
import { registerPurgeStripeEvents } from './jobs/purge-stripe-events.ts';
import { purgeWebhookDeliveries } from './jobs/purge-webhook-deliveries.ts';
import { reapStaleScans, WORKER_LOST_MESSAGE } from './jobs/reap-scans.ts';
import { runScan } from './jobs/run-scan.ts';
import { scheduleDueScans } from './jobs/schedule-scans.ts';
import { type AlertDeps, sendScanAlert } from './jobs/send-alert.ts';
import { registerZoneSync, SYNC_ZONE, type ZoneSyncSettings } from './jobs/sync-zones.ts';
import { queueWebhookAlerts } from './jobs/webhook-alerts.ts';

const RUN_SCAN = 'run-scan';
const SCHEDULE_SCANS = 'schedule-scans';
const PURGE_SCANS = 'purge-scans';
const SEND_ALERT = 'send-alert';
const DELIVER_WEBHOOK = 'deliver-webhook';
/** Webhook deliveries one worker process makes at once (one per account at most). */
const WEBHOOK_DELIVERY_CONCURRENCY = 8;
/** Scans one worker process runs at once. */
export const WORKER_SCANS = 4;
const HEARTBEAT_MS = 10_000;
/** A user at their concurrency limit: their next scan waits this long in the queue. */
const DEFERRED_DELAY_SECONDS = 5;

export interface JobQueue {
  boss: PgBoss;
  queue: ScanQueue;
  /** Queues a read of a DNS connection's zones now (at most one waiting per connection). */
  enqueueSync: (connectionId: string) => Promise<void>;
  /** Queues one webhook delivery (its attempts and their retries) of an account (`tenant`). */
  enqueueDelivery: (deliveryId: string, tenant: string) => Promise<void>;
  isUp(): boolean;
  stop(): Promise<void>;
}

/** When the reaper looks for scans whose worker died, and how long a silent scan may stay running. */
interface ReaperTimings {
  intervalMs: number;
  staleMs: number;
}

/**
 * The queues and their policies, declared by every process that sends or works jobs: pg-boss
 * refuses a job for a queue that does not exist yet, and an API process may start before any worker.
 */
async function declareQueues(boss: PgBoss): Promise<void> {
  // Retries are the reaper's: a lost scan goes back to pending and gets a new job.
  await boss.createQueue(RUN_SCAN, { retryLimit: 0, expireInSeconds: 2 * 60 * 60 });
  // A receiver that is down for a while: retried with growing delays; the last attempt gives up.
  await boss.createQueue(DELIVER_WEBHOOK, {
    retryLimit: WEBHOOK_ATTEMPTS - 1,
    retryDelay: 10,
    retryBackoff: true,
  });
  // A provider that fails is retried by the next due check, and said on the connection.
  await boss.createQueue(SYNC_ZONE, { retryLimit: 0 });
  // An SMTP server that is down for a while: retried with growing delays, then given up (logged).
  await boss.createQueue(SEND_ALERT, { retryLimit: 5, retryDelay: 30, retryBackoff: true });
}

/**
 * The sending side of the durable job queue (pg-boss) in the same database as everything else. An
 * API process without a worker (`serve --no-worker`) has only this: it queues scans and webhook
 * deliveries and leaves maintenance and cron to the workers.
 */
export async function startQueue(
  database: Database,
  logger: Logger,
  role: 'producer' | 'worker' = 'producer',
): Promise<JobQueue> {
  const worker = role === 'worker';
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({
          connectionString: database.pool.options.connectionString,
          max: worker ? 4 : 2,
          supervise: worker,
          schedule: worker,
        });
  let up = false;
  const outage = database.kind === 'postgres' ? database.outage : undefined;
  // pg-boss keeps polling through an outage and reports each failed poll here: logged once.
  boss.on('error', (error) =>
    isDatabaseUnavailable(error) && outage
      ? outage.failed(error, 'job queue')
      : logger.error({ err: error }, 'job queue error'),
  );
  await boss.start();
  up = true;
  await declareQueues(boss);
  return {
    boss,
    queue: {
      enqueue: async (scanId, delaySeconds = 0) => {
        await boss.send(RUN_SCAN, { scanId }, delaySeconds > 0 ? { startAfter: delaySeconds } : {});
      },
    },
    enqueueSync: async (connectionId) => {
      await boss.send(SYNC_ZONE, { connectionId }, { singletonKey: connectionId });
    },
    enqueueDelivery: async (deliveryId, tenant) => {
      await boss.send(DELIVER_WEBHOOK, { deliveryId }, { group: { id: tenant } });
    },
    isUp: () => up,
    stop: async () => {
      up = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

/**
 * The queue with its workers: at scale several worker processes share the jobs through SKIP
 * LOCKED. Scan jobs carry only the scan id; the scan row is the truth (claimed pending → running,
 * so a job run twice does nothing).
 */
export async function startWorker(
  database: Database,
  logger: Logger,
  settings: EngineSettings,
  alerts?: AlertDeps,
  reaper: ReaperTimings = { intervalMs: REAP_INTERVAL_MS, staleMs: STALE_HEARTBEAT_MS },
  zones?: ZoneSyncSettings,
): Promise<JobQueue> {
  const jobs = await startQueue(database, logger, 'worker');
  const { boss, queue, enqueueDelivery } = jobs;
  const db = database.db;
  const outage = database.kind === 'postgres' ? database.outage : undefined;

  // Aborted at stop: running scans go back to pending instead of waiting for the reaper.
  const shutdown = new AbortController();
  await registerPurgeRateLimits(boss, db, logger);
  await registerPurgeStripeEvents(boss, db, logger);
  await boss.work<{ scanId: string }>(
    RUN_SCAN,
    { pollingIntervalSeconds: 0.5, localConcurrency: WORKER_SCANS },
    async ([job]) => {
      if (!job) return;
      const { scanId } = job.data;
      const outcome = await runScan(db, scanId, settings, logger, { shutdown: shutdown.signal, outage });
      if (outcome === 'deferred') await queue.enqueue(scanId, DEFERRED_DELAY_SECONDS);
      if (outcome === 'completed' && alerts) {
        await whenDatabaseAnswers(() => boss.send(SEND_ALERT, { scanId }), { outage });
      }
    },
  );

  // Several receivers at once, and never more than one of an account's: a receiver that takes its
  // full timeout on every attempt holds up its own account's alerts, not everyone's.
  await boss.work<{ deliveryId: string }>(
    DELIVER_WEBHOOK,
    { localConcurrency: WEBHOOK_DELIVERY_CONCURRENCY, localGroupConcurrency: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      if (!job) return;
      const outcome = await deliverWebhook(db, job.data.deliveryId, {
        allowPrivate: settings.allowPrivate,
        resolvers: settings.resolvers,
        logger,
      });
      if (outcome === 'retry') throw new Error('webhook delivery will be retried');
    },
  );

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

  if (zones)
    await registerZoneSync(boss, db, queue, { resolvers: settings.resolvers, ...zones }, logger, alerts);

  await boss.createQueue(SCHEDULE_SCANS);
  await boss.schedule(SCHEDULE_SCANS, '* * * * *');
  await boss.work(SCHEDULE_SCANS, async () => {
    const started = await scheduleDueScans(db, queue, logger, { resolvers: settings.resolvers });
    if (started) logger.info({ started }, 'scheduled scans started');
  });

  // Every worker reaps on its own timer rather than through a pg-boss cron, whose finest step is a
  // minute: a test (and an impatient operator) can ask for seconds. Two reapers at once are harmless.
  // Databases from before this hold the old cron job's queue and schedule, which would collect one
  // unworked job a minute: removed (a no-op once gone).
  await boss.deleteQueue('reap-scans');
  let reaping = Promise.resolve();
  const reap = async () => {
    const { retried, abandoned, waiting } = await reapStaleScans(db, new Date(), reaper.staleMs);
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
  };
  const reapTimer = setInterval(() => {
    reaping = reaping
      .then(reap)
      .catch((error) =>
        isDatabaseUnavailable(error) && outage
          ? outage.failed(error, 'reaper')
          : logger.warn({ err: error }, 'reaping scans failed'),
      );
  }, reaper.intervalMs);

  await boss.createQueue(PURGE_SCANS);
  await boss.schedule(PURGE_SCANS, '17 3 * * *');
  await boss.work(PURGE_SCANS, async () => {
    logger.info({ deleted: await purgeExpiredScans(db) }, 'purged scans past their retention');
    logger.info(
      { deleted: await purgeWebhookDeliveries(db) },
      'purged webhook deliveries past their retention',
    );
    logger.info({ deleted: await purgeDeletedAccounts(db) }, 'purged tombstones of deleted accounts');
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
      .catch((error) =>
        isDatabaseUnavailable(error) && outage
          ? outage.failed(error, 'worker heartbeat')
          : logger.warn({ err: error }, 'worker heartbeat failed'),
      );
  await beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);

  return {
    ...jobs,
    stop: async () => {
      clearInterval(heartbeat);
      clearInterval(reapTimer);
      shutdown.abort();
      await reaping;
      await jobs.stop();
      await db
        .delete(workerHeartbeats)
        .where(eq(workerHeartbeats.id, id))
        .catch(() => {});
    },
  };
}
