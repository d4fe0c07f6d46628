import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../../src/db/client.ts';

/**
 * Creating and migrating a database takes seconds; it is done once per run. Each test file loads
 * the PGlite snapshot (about 0.4 s), and each PostgreSQL database is a copy of one migrated
 * template (`create database … template`), instead of 25 migrations run again per database.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'dw-pglite-'));
  const database = await openDatabase({ dataDir: undefined });
  if (database.kind !== 'pglite') throw new Error('expected PGlite');
  await migrateDatabase(database);
  const snapshot = await database.pglite.dumpDataDir('none');
  await database.close();
  const path = join(dir, 'migrated.tar');
  writeFileSync(path, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', path);
  project.provide('runDir', dir);
  const template = await postgresTemplate();
  project.provide('postgresTemplate', template?.name ?? '');
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await template?.drop();
  };
}

/** A migrated database on the test server to copy from, when TEST_DATABASE_URL names one. */
async function postgresTemplate() {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `dw_template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await migrateDatabase(database);
  // A template may have no open connection while it is copied.
  await database.close();
  return { name, drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    /** A directory of this run's own, removed at its end. */
    runDir: string;
    /** The migrated PostgreSQL database each test database copies; empty without TEST_DATABASE_URL. */
    postgresTemplate: string;
    /** Set for the service lane: its files reuse their worker's databases (tests/helpers/databases.ts). */
    reuseDatabases?: boolean;
  }
}
