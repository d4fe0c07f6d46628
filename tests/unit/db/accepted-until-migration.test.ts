// The migration that gives acceptances an expiry, applied to a database the versions before it
// wrote: no acceptance is given an expiry its user did not see, so each counts as ended.
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingRecord } from '../../../src/core/domains/views.ts';
import { expireAcceptances } from '../../../src/core/triage/acceptance-expiry.ts';
import { type Database, migrateDatabase } from '../../../src/db/client.ts';
import { findings } from '../../../src/db/schema.ts';
import { findingView } from '../../fixtures/finding.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const ACCEPTED_UNTIL_MIGRATION = 23;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the accepted-until migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(ACCEPTED_UNTIL_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      const db = database.db;
      await db.execute(sql`insert into users (id, email, provider) values ('ann', 'ann@acme.com', 'google')`);
      for (const [name, accepted] of [
        ['kept.acme.com', true],
        ['open.acme.com', false],
      ] as const) {
        await db.execute(sql`
          insert into findings (workspace_id, domain, key, subdomain, latest, first_seen_at, last_seen_at, accepted_at, accepted_note)
          values ('ann', 'acme.com', ${name}, ${name}, ${JSON.stringify(findingView(name))}::jsonb,
            '2026-10-01T08:00:00Z', '2026-10-01T08:00:00Z',
            ${accepted ? '2026-10-02T08:00:00Z' : null}::timestamptz, ${accepted ? 'parked' : null})`);
      }
      await migrateDatabase(database);
    });
    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('gives no acceptance an expiry: an old one shows none, counts as ended, and ends at the first run', async () => {
      const [kept] = await database.db.select().from(findings).where(eq(findings.subdomain, 'kept.acme.com'));
      expect(kept).toMatchObject({
        acceptedUntil: null,
        acceptedUntilRecordChanges: false,
        acceptedBy: null,
      });
      expect(kept && findingRecord(kept).accepted).toEqual({
        at: '2026-10-02T08:00:00.000Z',
        by: null,
        note: 'parked',
        until: null,
      });
      expect(await expireAcceptances(database.db, new Date('2026-11-27T12:00:00Z'))).toBe(1);
      const [after] = await database.db
        .select()
        .from(findings)
        .where(eq(findings.subdomain, 'kept.acme.com'));
      expect(after && findingRecord(after)).toMatchObject({
        accepted: null,
        acceptanceEnded: { by: null, until: null, at: '2026-11-27T12:00:00.000Z' },
      });
    });
  });
}
