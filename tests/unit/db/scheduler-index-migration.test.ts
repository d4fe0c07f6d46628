// The migration that makes one active scan per domain name a rule of the database, applied to a
// database that the versions before it wrote, where a race could have left two.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateDatabase, queryRows } from '../../../src/db/client.ts';
import { violatesUnique } from '../../../src/db/constraints.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const SCHEDULER_INDEX_MIGRATION = 20;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the scheduler's index migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(SCHEDULER_INDEX_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      const db = database.db;
      await db.execute(sql`insert into users (id, email, provider) values ('ann', 'ann@acme.com', 'google')`);
      for (const [name, status, at] of [
        ['twice.com', 'pending', '2026-11-20T08:00:00Z'],
        ['twice.com', 'pending', '2026-11-20T08:01:00Z'],
        ['running.com', 'pending', '2026-11-20T08:00:00Z'],
        ['running.com', 'running', '2026-11-20T08:02:00Z'],
        ['running.com', 'completed', '2026-11-19T08:00:00Z'],
        ['once.com', 'pending', '2026-11-20T08:00:00Z'],
      ] as const) {
        await db.execute(sql`
          insert into scans (workspace_id, domain, status, created_at)
          values ('ann', ${name}, ${status}, ${at}::timestamptz)`);
      }
      await migrateDatabase(database);
    });
    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('keeps the running scan of a name, else its oldest, and cancels the others with the reason', async () => {
      const rows = await queryRows<{ domain: string; status: string; at: string; error: string | null }>(
        database.db,
        sql`select domain, status, to_char(created_at at time zone 'UTC', 'HH24:MI') as at, error
            from scans order by domain, created_at`,
      );
      const cancelled = 'Cancelled: another scan of this domain was already under way.';
      expect(rows).toEqual([
        { domain: 'once.com', status: 'pending', at: '08:00', error: null },
        { domain: 'running.com', status: 'completed', at: '08:00', error: null },
        { domain: 'running.com', status: 'cancelled', at: '08:00', error: cancelled },
        { domain: 'running.com', status: 'running', at: '08:02', error: null },
        { domain: 'twice.com', status: 'pending', at: '08:00', error: null },
        { domain: 'twice.com', status: 'cancelled', at: '08:01', error: cancelled },
      ]);
    });

    it('refuses a second active scan of a name from then on, naming the index', async () => {
      const second = database.db.execute(
        sql`insert into scans (workspace_id, domain, status) values ('ann', 'once.com', 'running')`,
      );
      const error = await second.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(violatesUnique(error, 'scans_active')).toBe(true);
      // A finished scan of the name is no conflict.
      await database.db.execute(
        sql`insert into scans (workspace_id, domain, status) values ('ann', 'once.com', 'completed')`,
      );
    });
  });
}
