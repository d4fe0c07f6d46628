// Migrations 0015 (what a verified domain's ownership stands on) and 0016 (findings as a state),
// applied to a database written as the versions before them wrote it.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateDatabase, queryRows } from '../../../src/db/client.ts';
import { findingView } from '../../fixtures/finding.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const ZONE_PROOF_MIGRATION = 15;
const CONFIG = '{"skipDiscovery":false,"useCertificateTransparency":true,"useMultiStageValidation":true}';
const finding = (subdomain: string) => JSON.stringify(findingView(subdomain));

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the zone-proof and finding-state migrations on ${backend.name}`,
    () => {
      let database: Database;
      const folder = migrationsBefore(ZONE_PROOF_MIGRATION);

      beforeAll(async () => {
        database = await backend.openUnmigrated();
        await migrateTo(database, folder);
        const db = database.db;
        await db.execute(
          sql`insert into users (id, email, provider) values ('ann', 'ann@acme.com', 'google')`,
        );
        // A domain a zone listing verified, one verified by TXT, one pending.
        for (const [name, status, source] of [
          ['zoned.com', 'verified', 'cloudflare'],
          ['texted.com', 'verified', null],
          ['waiting.com', 'pending', null],
        ] as const) {
          await db.execute(sql`
          insert into domains (workspace_id, domain, status, verification_token, scan_config, inventory_source)
          values ('ann', ${name}, ${status}, 'tok', ${'{"scanFrequency":"daily"}'}::jsonb, ${source})`);
        }
        await db.execute(sql`
        insert into dns_connections (id, workspace_id, provider, label, credential_sealed, credential_hint)
        values ('00000000-0000-4000-8000-000000000001', 'ann', 'cloudflare', 'prod', 'sealed', 'abcd')`);
        await db.execute(sql`
        insert into dns_connection_zones (connection_id, zone, domain_id)
        select '00000000-0000-4000-8000-000000000001', 'zoned.com', id from domains where domain = 'zoned.com'`);

        // texted.com was scanned before findings had a state: an older full scan, the latest full
        // scan, and a partial scan of changed records after it.
        const scan = async (id: string, day: number, found: string[], partial: boolean) =>
          db.execute(sql`
          insert into scans (id, workspace_id, domain, status, completed_at, config, findings)
          values (${id}, 'ann', 'texted.com', 'completed', ${`2026-10-0${day}T08:00:00Z`},
            ${partial ? `{"names":["c.texted.com"],${CONFIG.slice(1)}` : CONFIG}::jsonb,
            ${`[${found.map(finding).join(',')}]`}::jsonb)`);
        await scan('00000000-0000-4000-8000-00000000000a', 1, ['a.texted.com', 'b.texted.com'], false);
        await scan('00000000-0000-4000-8000-00000000000b', 2, ['a.texted.com'], false);
        await scan('00000000-0000-4000-8000-00000000000c', 3, ['c.texted.com'], true);
        // zoned.com's findings were recorded as scans ran: one open, one resolved by a later scan.
        await scan('00000000-0000-4000-8000-00000000000d', 4, [], false);
        await db.execute(
          sql`update scans set domain = 'zoned.com' where id = '00000000-0000-4000-8000-00000000000d'`,
        );
        await db.execute(sql`
        insert into findings (workspace_id, domain, key, subdomain, latest, first_seen_at, last_seen_at, resolved_at, first_scan_id, last_scan_id)
        values
          ('ann', 'zoned.com', 'k1', 'x.zoned.com', ${finding('x.zoned.com')}::jsonb, now(), now(), null,
            '00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000e1'),
          ('ann', 'zoned.com', 'k2', 'y.zoned.com', ${finding('y.zoned.com')}::jsonb, now(), now(), '2026-10-04T08:00:00Z',
            '00000000-0000-4000-8000-0000000000e2', '00000000-0000-4000-8000-0000000000e2')`);
        await migrateDatabase(database);
      });

      afterAll(async () => {
        await database?.close();
        rmSync(folder, { recursive: true, force: true });
      });

      it('marks what each verified domain stood on: the zone listing or the TXT record', async () => {
        const rows = await queryRows<{ domain: string; proof: string | null }>(
          database.db,
          sql`select domain, proof from domains order by domain`,
        );
        expect(rows).toEqual([
          { domain: 'texted.com', proof: 'txt' },
          { domain: 'waiting.com', proof: null },
          { domain: 'zoned.com', proof: 'zone' },
        ]);
      });

      it('names the scan that opened and the scan that resolved each recorded finding', async () => {
        const rows = await queryRows<{ key: string; opened: string | null; resolved: string | null }>(
          database.db,
          sql`select key, opened_by_scan_id as opened, resolved_by_scan_id as resolved
            from findings where domain = 'zoned.com' order by key`,
        );
        expect(rows).toEqual([
          { key: 'k1', opened: '00000000-0000-4000-8000-0000000000e1', resolved: null },
          {
            key: 'k2',
            opened: '00000000-0000-4000-8000-0000000000e2',
            resolved: '00000000-0000-4000-8000-00000000000d',
          },
        ]);
      });

      it("gives a domain scanned before findings had a state its latest full scan's findings", async () => {
        const rows = await queryRows<{ subdomain: string; opened: string; key: string }>(
          database.db,
          sql`select subdomain, opened_by_scan_id as opened, key from findings where domain = 'texted.com'`,
        );
        expect(rows.map((r) => [r.subdomain, r.opened])).toEqual([
          ['a.texted.com', '00000000-0000-4000-8000-00000000000b'],
        ]);
        // The key is the one the lifecycle computes, so the next scan finds the same finding again.
        expect(rows[0]?.key).toBe(
          createHash('sha256').update('a.texted.com\nCNAME\ngone.herokuapp.com\nHeroku').digest('hex'),
        );
      });
    },
  );
}
