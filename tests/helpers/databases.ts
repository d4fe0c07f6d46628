import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';

export interface DatabaseBackend {
  name: 'PGlite' | 'PostgreSQL';
  /** Why this backend cannot run here, or undefined when it can. */
  skipReason: string | undefined;
  /** A fresh, migrated, empty database; close it with the returned close(). */
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
    openDatabase({ dataDir: undefined, loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) }),
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
    open: () => openPostgres(inject('postgresTemplate')),
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
