import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migrationsApplied, openDatabase, queryRows } from '../../../src/db/client.ts';

// Migrating a new embedded database twice takes 3 s alone and more than 20 s on a busy machine.
describe('the embedded database in DATA_DIR', { timeout: 90_000 }, () => {
  const dirs: string[] = [];
  const newDir = () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'dw-data-')));
    return dirs.at(-1) as string;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what was stored across a restart', async () => {
    const dir = newDir();
    const first = await openDatabase({ dataDir: dir });
    await migrateDatabase(first);
    await first.db.execute(
      sql`insert into mailing_list_signups (email, source) values ('kept@example.com', 'home')`,
    );
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    await migrateDatabase(second);
    expect(await migrationsApplied(second)).toBe(true);
    const rows = await queryRows<{ email: string }>(second.db, sql`select email from mailing_list_signups`);
    expect(rows.map((r) => r.email)).toEqual(['kept@example.com']);
    await second.close();
  });

  it('refuses a second holder of the same directory while the first runs', async () => {
    const dir = newDir();
    const holder = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/is in use by process/);
    await holder.close();
    const next = await openDatabase({ dataDir: dir });
    await next.close();
  });
});
