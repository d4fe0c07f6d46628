// The migration that records the fingerprints' sources of each scan, applied to a database the
// versions before it wrote: a scan stored then says it did not record them, never borrows today's.
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanView } from '../../../src/core/domains/views.ts';
import { type Database, migrateDatabase } from '../../../src/db/client.ts';
import { scans } from '../../../src/db/schema.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const SCAN_FINGERPRINTS_MIGRATION = 27;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the scan fingerprints migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(SCAN_FINGERPRINTS_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      const db = database.db;
      await db.execute(sql`insert into users (id, email, provider) values ('ann', 'ann@acme.com', 'google')`);
      await db.execute(sql`
        insert into scans (workspace_id, domain, status, started_at, completed_at, subdomains_scanned)
        values ('ann', 'acme.com', 'completed', '2026-10-01T08:00:00Z', '2026-10-01T08:01:00Z', 4)`);
      await migrateDatabase(database);
    });
    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('leaves an older scan without sources, and keeps those a new scan records', async () => {
      const [old] = await database.db.select().from(scans).where(eq(scans.domain, 'acme.com'));
      expect(old && scanView(old).fingerprints).toBeNull();
      const sources = [
        { name: 'BadDNS', url: 'https://github.com/blacklanternsecurity/baddns', date: '2026-03-22' },
      ];
      const [recorded] = await database.db
        .insert(scans)
        .values({ workspaceId: 'ann', domain: 'shop.acme.com', status: 'completed', fingerprints: sources })
        .returning();
      expect(recorded && scanView(recorded).fingerprints).toEqual(sources);
    });
  });
}
