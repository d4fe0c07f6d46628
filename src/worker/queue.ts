import { hostname } from 'node:os';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AlertDeps } from '../core/alerts/send-scan-alert.ts';
import type { CloudSyncSettings } from '../core/cloud-accounts/scheduled-sync.ts';
import type { SecretsKey } from '../core/connections/secrets.ts';
import type { ZoneSyncSettings } from '../core/dns-connections/scheduled-sync.ts';
import type { ScanQueue } from '../core/domains/scan-requests.ts';
import type { EngineSettings } from '../core/engine-settings.ts';
import { INTEGRATION_ATTEMPTS } from '../core/integrations/deliver.ts';
import { DEFAULT_INTEGRATION_URLS, type IntegrationUrls } from '../core/integrations/targets.ts';
import { pendingScanIds } from '../core/scans/reaper.ts';
import { forgetWorkerHeartbeat, recordWorkerHeartbeat } from '../core/scans/worker-heartbeats.ts';
import { WEBHOOK_ATTEMPTS } from '../core/webhooks/deliver.ts';
import type { Database } from '../db/client.ts';
import { isDatabaseUnavailable } from '../db/outage.ts';
import { REAP_INTERVAL_MS, STALE_HEARTBEAT_MS } from '../model/constants.ts';
import {
  DELIVER_INTEGRATION,
  registerDeliverIntegration,
  ticketDispatcher,
} from './jobs/deliver-integration.ts';
import { DELIVER_WEBHOOK, registerDeliverWebhook } from './jobs/deliver-webhook.ts';
import { registerExpireAcceptances } from './jobs/expire-acceptances.ts';
import { registerPurgeRateLimits } from './jobs/purge-rate-limits.ts';
import { registerPurgeScans } from './jobs/purge-scans.ts';
import { registerPurgeStripeEvents } from './jobs/purge-stripe-events.ts';
import { type ReaperTimings, startReaper } from './jobs/reap-scans.ts';
import { RUN_SCAN, registerRunScan } from './jobs/run-scan.ts';
import { registerScheduleScans } from './jobs/schedule-scans.ts';
import { registerSendAlert, SEND_ALERT } from './jobs/send-alert.ts';
import { registerCloudSync, SYNC_CLOUD } from './jobs/sync-clouds.ts';
import { registerZoneSync, SYNC_ZONE } from './jobs/sync-zones.ts';
import { registerWeeklySummary } from './jobs/weekly-summary.ts';

const HEARTBEAT_MS = 10_000;
/** How often a worker queues the deliveries of tickets whose state changed. */
const TICKET_DISPATCH_MS = 5_000;

export interface JobQueue {
  boss: PgBoss;
  queue: ScanQueue;
  /** Queues a read of a DNS connection's zones now (at most one waiting per connection). */
  enqueueSync: (connectionId: string) => Promise<void>;
  /** Queues a read of a cloud account now (at most one waiting per account). */
  enqueueCloudSync: (cloudAccountId: string) => Promise<void>;
  /** Queues one webhook delivery (its attempts and their retries) of an account (`tenant`). */
  enqueueDelivery: (deliveryId: string, tenant: string) => Promise<void>;
  /** Queues one integration delivery (a ticket's change, or a test) of a workspace (`tenant`). */
  enqueueIntegration: (deliveryId: string, tenant: string) => Promise<void>;
  isUp(): boolean;
  stop(): Promise<void>;
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
  // A tracker that is down or rate limiting: retried with growing delays; the last attempt gives up.
  await boss.createQueue(DELIVER_INTEGRATION, {
    retryLimit: INTEGRATION_ATTEMPTS - 1,
    retryDelay: 15,
    retryBackoff: true,
  });
  // A provider that fails is retried by the next due check, and said on the connection.
  await boss.createQueue(SYNC_ZONE, { retryLimit: 0 });
  await boss.createQueue(SYNC_CLOUD, { retryLimit: 0 });
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
      enqueueMany: async (scanIds) => {
        await boss.insert(
          RUN_SCAN,
          scanIds.map((scanId) => ({ data: { scanId } })),
        );
      },
    },
    enqueueSync: async (connectionId) => {
      await boss.send(SYNC_ZONE, { connectionId }, { singletonKey: connectionId });
    },
    enqueueCloudSync: async (cloudAccountId) => {
      await boss.send(SYNC_CLOUD, { cloudAccountId }, { singletonKey: cloudAccountId });
    },
    enqueueDelivery: async (deliveryId, tenant) => {
      await boss.send(DELIVER_WEBHOOK, { deliveryId }, { group: { id: tenant } });
    },
    enqueueIntegration: async (deliveryId, tenant) => {
      await boss.send(DELIVER_INTEGRATION, { deliveryId }, { group: { id: tenant } });
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
  clouds?: CloudSyncSettings,
  integrations: { secrets?: SecretsKey; urls?: IntegrationUrls } = {},
): Promise<JobQueue> {
  const jobs = await startQueue(database, logger, 'worker');
  const { boss, queue, enqueueDelivery, enqueueIntegration } = jobs;
  const db = database.db;
  const outage = database.kind === 'postgres' ? database.outage : undefined;

  // Aborted at stop: running scans go back to pending instead of waiting for the reaper.
  const shutdown = new AbortController();
  await registerPurgeRateLimits(boss, db, logger);
  await registerPurgeStripeEvents(boss, db, logger);
  await registerRunScan(boss, db, settings, logger, {
    queue,
    shutdown: shutdown.signal,
    outage,
    alerts: alerts !== undefined,
    dispatchTickets: ticketDispatcher(db, enqueueIntegration),
  });
  await registerDeliverWebhook(boss, db, settings, logger);
  if (alerts) await registerSendAlert(boss, db, alerts, enqueueDelivery, logger);
  if (alerts) await registerWeeklySummary(boss, db, alerts, logger);
  if (zones)
    await registerZoneSync(boss, db, queue, { resolvers: settings.resolvers, ...zones }, logger, alerts);
  if (clouds) await registerCloudSync(boss, db, clouds, logger, alerts);
  await registerScheduleScans(boss, db, queue, settings.resolvers, logger);
  await registerDeliverIntegration(
    boss,
    db,
    {
      secrets: integrations.secrets ?? zones?.secrets,
      urls: integrations.urls ?? {
        ...DEFAULT_INTEGRATION_URLS,
        allowPlainLoopback: Boolean(settings.allowPrivate),
      },
      publicUrl: alerts?.publicUrl ?? 'http://localhost',
    },
    logger,
  );
  // Every minute: ended acceptances, then the tickets whose state changed (scans, acceptances).
  await registerExpireAcceptances(
    boss,
    db,
    alerts,
    logger,
    ticketDispatcher(db, enqueueIntegration),
    enqueueDelivery,
  );
  const stopReaper = await startReaper(boss, db, queue, reaper, logger, outage);
  await registerPurgeScans(boss, db, logger);

  // Pending scans whose job was lost (released at a shutdown, or queued while no worker ran) get
  // a job again; a scan that already has one only sees a second claim fail.
  for (const scanId of await pendingScanIds(db)) await queue.enqueue(scanId);

  const id = `${hostname()}:${process.pid}`;
  const beat = () =>
    recordWorkerHeartbeat(db, id).catch((error) =>
      isDatabaseUnavailable(error) && outage
        ? outage.failed(error, 'worker heartbeat')
        : logger.warn({ err: error }, 'worker heartbeat failed'),
    );
  await beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  // Tickets whose findings changed (an acceptance, a scan, an expiry) are queued within seconds, not
  // at the next minute's job; the claim is one statement, so workers never queue one twice.
  const dispatch = ticketDispatcher(db, enqueueIntegration);
  const tickets = setInterval(
    () =>
      void dispatch().catch((error) =>
        isDatabaseUnavailable(error) && outage
          ? outage.failed(error, 'ticket dispatch')
          : logger.warn({ err: error }, 'ticket dispatch failed'),
      ),
    TICKET_DISPATCH_MS,
  );

  return {
    ...jobs,
    stop: async () => {
      clearInterval(heartbeat);
      clearInterval(tickets);
      shutdown.abort();
      await stopReaper();
      await jobs.stop();
      await forgetWorkerHeartbeat(db, id).catch(() => {});
    },
  };
}
