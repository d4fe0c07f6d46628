// The migration that gives every outside account someone who answers for it, applied to a database
// the versions before it wrote: a DNS connection or cloud account answers to the member of its
// workspace whose address it named as its maker; one whose maker is not a member, or named by a
// name alone, answers to nobody, and nobody's leaving disables it.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableAnsweredBy } from '../../../src/core/connections/answerable.ts';
import { type Database, migrateDatabase, queryRows } from '../../../src/db/client.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const CONNECTION_LIFECYCLE_MIGRATION = 25;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the connection-lifecycle migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(CONNECTION_LIFECYCLE_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      const db = database.db;
      await db.execute(sql`insert into users (id, email, provider) values
        ('ann', 'ann@acme.com', 'google'), ('bob', 'bob@bob.com', 'google')`);
      await db.execute(sql`insert into workspaces (id, name, tier) values ('team', 'Acme', 'starter')`);
      await db.execute(
        sql`insert into workspace_members (workspace_id, user_id, role) values ('team', 'ann', 'admin')`,
      );
      for (const [table, label, maker] of [
        ['dns_connections', 'by-ann', 'Ann@Acme.com'],
        ['dns_connections', 'by-bob', 'bob@bob.com'],
        ['cloud_accounts', 'by-ann', 'ann@acme.com'],
        ['cloud_accounts', 'by-name', 'Ann'],
      ] as const) {
        await db.execute(sql`insert into ${sql.identifier(table)}
          (workspace_id, provider, label, credential_sealed, credential_hint, created_by)
          values ('team', 'digitalocean', ${label}, 'v1:old', 'old0', ${maker})`);
      }
      await migrateDatabase(database);
    });
    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    const answered = async (table: 'dns_connections' | 'cloud_accounts') =>
      Object.fromEntries(
        (
          await queryRows<{ label: string; answered_by: string | null }>(
            database.db,
            sql`select label, answered_by from ${sql.identifier(table)} order by label`,
          )
        ).map((row) => [row.label, row.answered_by]),
      );

    it("answers each to the member of its workspace whose address it named, whatever the address's case", async () => {
      expect(await answered('dns_connections')).toEqual({ 'by-ann': 'ann', 'by-bob': null });
      expect(await answered('cloud_accounts')).toEqual({ 'by-ann': 'ann', 'by-name': null });
    });

    it('disables what the member answers for when they leave, and nothing that answers to nobody', async () => {
      const disabled = await disableAnsweredBy(database.db, {
        workspaceId: 'team',
        userId: 'ann',
        reason: 'Ann left',
        now: new Date('2026-11-28T12:00:00Z'),
      });
      expect(disabled.map((d) => [d.kind, d.name]).sort()).toEqual([
        ['cloud', 'by-ann (digitalocean)'],
        ['dns', 'by-ann (digitalocean DNS)'],
      ]);
    });
  });
}
