import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';

export interface DatabaseBackend {
  name: 'PGlite' | 'PostgreSQL';
  /** Why this backend cannot run here, or undefined when it can. */
  skipReason: string | undefined;
  /**
   * A migrated, empty database; close it with the returned close(). In the service lane it is the
   * worker's own database, emptied (see `reused`); elsewhere a new one.
   */
  open(): Promise<Database>;
  /** A fresh database with no migration applied: for tests of the migrations themselves. */
  openUnmigrated(): Promise<Database>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/** The backend that always runs: for tests that need one database, not each. */
export const pgliteBackend: DatabaseBackend = {
  name: 'PGlite',
  skipReason: undefined,
  open: () =>
    reused('PGlite', () =>
      openDatabase({ dataDir: undefined, loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) }),
    ),
  openUnmigrated: () => openDatabase({ dataDir: undefined }),
};

/**
 * The backends of a test file whose behaviour depends on the database engine: PGlite always,
 * PostgreSQL too when TEST_DATABASE_URL names a server (`.ci/run` sets it). A file loops over these
 * when one of its tests holds for requests or processes that race (locks, constraints, claims),
 * migrations or the schema itself, the pg-boss queue, or SQL whose answer may differ between the
 * engines (text order, time arithmetic, JSON operators). Every other file (routes, validation,
 * permissions, messages) loops over embeddedOnly: a second run on PostgreSQL would repeat the
 * same statements and find nothing new. Each open() gives an isolated database.
 */
export const databaseBackends: DatabaseBackend[] = [
  pgliteBackend,
  {
    name: 'PostgreSQL',
    skipReason: postgresUrl
      ? undefined
      : 'TEST_DATABASE_URL is not set, so there is no PostgreSQL to test against',
    open: () => reused('PostgreSQL', () => openPostgres(inject('postgresTemplate'))),
    openUnmigrated: () => openPostgres(),
  },
];

/** The backends of a file whose tests do not depend on the engine: the one `npm start` runs on. */
export const embeddedOnly: DatabaseBackend[] = [pgliteBackend];

/**
 * A database of its own on the test server, dropped when closed: a copy of the run's migrated
 * template, or empty without one.
 */
async function openPostgres(template?: string): Promise<Database> {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `dw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: postgresUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * The service lane (vitest's `app` project, whose files share one module graph per worker) gives
 * each file the worker's own database of each backend, emptied, instead of a new one: opening a
 * PGlite costs about a second of CPU and a PostgreSQL copy a second of the server's, a hundred
 * times a run. A database still open when another is asked for (two at once in one file) stays
 * its own, and the second is new.
 *
 * Emptied rather than run in one transaction rolled back at the end: the services' tests send
 * concurrent requests whose transactions must really commit and contend (locks, unique indexes,
 * claims); inside one outer transaction they would be savepoints on one connection and the races
 * they exist for would not happen.
 */
const workerDatabases = new Map<DatabaseBackend['name'], { database: Promise<Database>; inUse: boolean }>();

async function reused(name: DatabaseBackend['name'], open: () => Promise<Database>): Promise<Database> {
  if (!inject('reuseDatabases')) return open();
  let entry = workerDatabases.get(name);
  if (entry?.inUse) return open();
  if (entry) {
    entry.inUse = true;
    await emptyDatabase(await entry.database);
  } else {
    entry = { database: open(), inUse: true };
    workerDatabases.set(name, entry);
  }
  const held = entry;
  const database = await held.database;
  return {
    ...database,
    close: async () => {
      held.inUse = false;
    },
  };
}

/** Every row of the schema gone, and pg-boss's schema too (a queue started on it makes it anew). */
async function emptyDatabase(database: Database): Promise<void> {
  await database.db.execute(sql`
    DO $$ BEGIN
      EXECUTE (
        SELECT 'TRUNCATE ' || string_agg(format('%I.%I', schemaname, tablename), ', ') || ' RESTART IDENTITY CASCADE'
        FROM pg_tables WHERE schemaname = 'public'
      );
    END $$`);
  await database.db.execute(sql`DROP SCHEMA IF EXISTS pgboss CASCADE`);
}
