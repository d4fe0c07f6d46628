import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { registerPurgeRateLimits } from './jobs/purge-rate-limits.ts';

/**
 * The durable job queue (pg-boss) in the same database as everything else: jobs survive restarts,
 * and at scale several worker processes share them through SKIP LOCKED.
 */
export async function startWorker(database: Database, logger: Logger): Promise<PgBoss> {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: database.pool.options.connectionString, max: 4 });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  await registerPurgeRateLimits(boss, database.db, logger);
  return boss;
}
