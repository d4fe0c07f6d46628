import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../../src/db/client.ts';

/**
 * Creating and migrating a PGlite database takes seconds; it is done once per run and each test
 * file loads the snapshot (about 0.4 s).
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
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    /** A directory of this run's own, removed at its end. */
    runDir: string;
  }
}
