import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Logger } from 'pino';
import { lockDataDir } from './lock.ts';
import { DatabaseOutage, isDatabaseUnavailable } from './outage.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database =
  | { kind: 'pglite'; db: Db; pglite: PGlite; close: () => Promise<void> }
  | { kind: 'postgres'; db: Db; pool: pg.Pool; outage: DatabaseOutage; close: () => Promise<void> };

type DatabaseOptions =
  /** `logger` hears of outages: one line when the server goes away, one when it is back. */
  | { databaseUrl: string; logger?: Pick<Logger, 'warn' | 'info'> }
  /** dataDir undefined means an in-memory PGlite (tests). */
  | { dataDir: string | undefined; loadDataDir?: Blob };

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // A server that does not answer (a failover in progress) fails a request in seconds, with 503.
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    const outage = new DatabaseOutage(options.logger ?? silent);
    // PostgreSQL closes every connection when it restarts, fails over or terminates backends; an
    // 'error' event nobody listens to would end the process. Idle clients report through the pool,
    // clients in use on their own; the next query opens a new connection.
    pool.on('error', (error) => outage.failed(error, 'idle connection'));
    pool.on('connect', (client) => {
      client.on('error', (error) => outage.failed(error, 'connection'));
      outage.recovered();
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { kind: 'postgres', db, pool, outage, close: () => pool.end() };
  }
  let unlock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const pglite = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    await pglite.waitReady;
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    return {
      kind: 'pglite',
      db,
      pglite,
      close: async () => {
        await pglite.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

const silent = { warn: () => {}, info: () => {} };

/**
 * Waits until PostgreSQL answers, saying once why it does not: a process started before its
 * database (an orchestrator starts everything at once; a wrong port) keeps trying instead of
 * dying. Errors that waiting cannot mend (a wrong password, a missing database) are thrown.
 */
export async function waitForDatabase(
  database: Database,
  logger: Pick<Logger, 'warn' | 'info'>,
  retryMs = 2_000,
): Promise<void> {
  if (database.kind !== 'postgres') return;
  let said = false;
  for (;;) {
    try {
      await database.pool.query('select 1');
      if (said) logger.info('the database answers: starting');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (!said) {
        const url = new URL(String(database.pool.options.connectionString));
        const reason =
          error instanceof Error && error.message ? error.message : String((error as { code?: string }).code);
        logger.warn(
          { host: url.hostname, port: url.port || '5432', reason },
          `cannot reach the database at ${url.hostname}:${url.port || '5432'} (${reason}); retrying every ${retryMs / 1000} s`,
        );
        said = true;
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}

/** Any constant both sides agree on: it names the lock of the migrations in pg_advisory_lock. */
const MIGRATION_LOCK_ID = 0x64_77_6d_67;

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder });
    return;
  }
  // Several processes (API and workers) start at once on one PostgreSQL, and drizzle's migrator
  // does not lock: two of them would apply the same migration. The lock lives on a session of its
  // own, held while the migrator works through the pool's other connections; closing that session
  // releases the lock whatever happened.
  const holder = await database.pool.connect();
  try {
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(database.pool), { migrationsFolder });
  } finally {
    holder.release(true);
  }
}

/** True when every migration in the folder has been applied. */
export async function migrationsApplied(database: Database): Promise<boolean> {
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const expected = readMigrationFiles({ migrationsFolder }).length;
  const [row] = await queryRows<{ count: number }>(
    database.db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return Number(row?.count ?? 0) >= expected;
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

declare const transaction: unique symbol;

/**
 * A Db that is an open transaction. Only inTransaction makes one, so a function that takes a Tx
 * (the audit log) cannot be handed a connection whose change has already committed.
 */
export type Tx = Db & { readonly [transaction]: true };

/** Runs `work` in one transaction, handed the transaction as a Tx so services can pass it on. */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Tx));
}
