import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { reproveWith } from '../core/alerts/proven.ts';
import { loadSecretsKey, type SecretsKey } from '../core/connections/secrets.ts';
import { createMailer } from '../core/mail/mailer.ts';
import { setServerPlan } from '../core/server-plan.ts';
import { type Database, migrateDatabase, openDatabase, waitForDatabase } from '../db/client.ts';
import { type JobQueue, startWorker } from '../worker/queue.ts';
import type { Config } from './config.ts';
import { engineSettings, integrationUrls } from './engine-settings.ts';

/**
 * The database the configuration names, migrated: PostgreSQL with DATABASE_URL (waited for while
 * it does not answer, its outages logged), else PGlite in DATA_DIR.
 */
export async function openConfiguredDatabase(config: Config, logger: Logger): Promise<Database> {
  const database = await openDatabase(
    config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL, logger } : { dataDir: config.dataDir },
  );
  try {
    await waitForDatabase(database, logger);
    await migrateDatabase(database);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The e-mail sender the configuration names: SMTP_URL, else .eml files in the outbox. */
export function configuredMailer(config: Config, logger: Logger) {
  return createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: outboxDir(config),
    logger,
  });
}

/** Where alert e-mails go without SMTP_URL. */
export function outboxDir(config: Config): string {
  return join(config.dataDir, 'outbox');
}

/**
 * Starts the job workers with what the configuration says: the engine's servers, alert delivery
 * (SMTP or the outbox), the reaper's timings.
 */
export function startConfiguredWorker(
  config: Config,
  database: Database,
  logger: Logger,
  secrets: SecretsKey = loadSecretsKey(config, logger),
): Promise<JobQueue> {
  const host = ['0.0.0.0', '::'].includes(config.HOST) ? 'localhost' : config.HOST;
  const mailer = configuredMailer(config, logger);
  const engine = engineSettings(config);
  return startWorker(
    database,
    logger,
    engine,
    { mailer, publicUrl: config.PUBLIC_URL ?? `http://${host}:${config.PORT}`, reprove: reproveWith(engine) },
    { intervalMs: config.SCAN_REAP_INTERVAL_SECONDS * 1000, staleMs: config.SCAN_STALE_SECONDS * 1000 },
    { secrets, syncMinutes: config.ZONE_SYNC_MINUTES },
    { secrets, syncMinutes: config.CLOUD_SYNC_MINUTES },
    { secrets, urls: integrationUrls(config) },
  );
}

export const WORKER_NEEDS_POSTGRES =
  'A separate worker needs PostgreSQL (DATABASE_URL): the embedded database (PGlite) can be open in one ' +
  'process only, and `danglewatch serve` already runs the worker in that process.';

/**
 * A process that runs jobs only (`danglewatch worker`): scans, the scheduler, alerts, webhook
 * deliveries, the reaper and the purges, next to API processes started with `serve --no-worker`.
 */
export async function startWorkerProcess(
  config: Config,
): Promise<{ worker: JobQueue; logger: Logger; stop: () => Promise<void> }> {
  if (!config.DATABASE_URL) throw new Error(WORKER_NEEDS_POSTGRES);
  const logger = pino({ level: config.LOG_LEVEL });
  setServerPlan(config.serverPlan);
  const database = await openConfiguredDatabase(config, logger);
  try {
    const worker = await startConfiguredWorker(config, database, logger);
    logger.info({ database: database.kind }, 'DangleWatch worker is running');
    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= worker.stop().finally(() => database.close());
      return stopping;
    };
    return { worker, logger, stop };
  } catch (error) {
    await database.close();
    throw error;
  }
}
