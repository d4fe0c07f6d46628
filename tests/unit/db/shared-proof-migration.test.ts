// Migration 0019 (who proved a domain) applied to a database the versions before it wrote: each
// verified domain's prover is the latest actor of its verification in the audit log.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateDatabase, queryRows } from '../../../src/db/client.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const SHARED_PROOF_MIGRATION = 19;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the shared-proof migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(SHARED_PROOF_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      const db = database.db;
      await db.execute(sql`insert into users (id, email, provider) values
        ('ann', 'ann@acme.com', 'google'), ('bob', 'bob@acme.com', 'google')`);
      for (const [name, status] of [
        ['twice.com', 'verified'],
        ['unrecorded.com', 'verified'],
        ['lapsed.com', 'pending'],
      ] as const) {
        await db.execute(sql`
          insert into domains (workspace_id, domain, status, verification_token, scan_config)
          values ('ann', ${name}, ${status}, 'tok', ${'{"scanFrequency":"daily"}'}::jsonb)`);
      }
      // twice.com was verified by Bob, lapsed, then verified again by Ann.
      for (const [user, name, at] of [
        ['bob', 'twice.com', '2026-10-01T08:00:00Z'],
        ['ann', 'twice.com', '2026-10-02T08:00:00Z'],
        ['ann', 'lapsed.com', '2026-10-03T08:00:00Z'],
      ] as const) {
        await db.execute(sql`
          insert into audit_log (user_id, workspace_id, action, detail, created_at)
          select ${user}, 'ann', 'domain.verified', jsonb_build_object('domainId', id::text, 'domain', domain), ${at}::timestamptz
          from domains where domain = ${name}`);
      }
      await migrateDatabase(database);
    });
    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('names the latest prover of each verified domain, and nobody for the others', async () => {
      const rows = await queryRows<{ domain: string; proved_by: string | null }>(
        database.db,
        sql`select domain, proved_by from domains order by domain`,
      );
      expect(rows).toEqual([
        { domain: 'lapsed.com', proved_by: null },
        { domain: 'twice.com', proved_by: 'ann' },
        { domain: 'unrecorded.com', proved_by: null },
      ]);
    });
  });
}
