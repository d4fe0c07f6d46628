import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from '../../src/db/client.ts';

/** A copy of the migrations folder as it was before migration `index`: the journal cut there. */
export function migrationsBefore(index: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'dw-migrations-'));
  cpSync(join(import.meta.dirname, '../../drizzle'), dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** Applies the migrations of a folder that migrationsBefore made. */
export async function migrateTo(database: Database, migrationsFolder: string) {
  if (database.kind === 'pglite') await migratePglite(drizzlePglite(database.pglite), { migrationsFolder });
  else await migratePg(drizzlePg(database.pool), { migrationsFolder });
}
