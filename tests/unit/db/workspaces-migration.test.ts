import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateDatabase, queryRows } from '../../../src/db/client.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { migrateTo, migrationsBefore } from '../../helpers/migrations.ts';

const WORKSPACES_MIGRATION = 12;

const count = async (db: Database['db'], query: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(db, query))[0]?.n;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`the workspaces migration on ${backend.name}`, () => {
    let database: Database;
    const folder = migrationsBefore(WORKSPACES_MIGRATION);

    beforeAll(async () => {
      database = await backend.openUnmigrated();
      await migrateTo(database, folder);
      // Two accounts with everything an account held before workspaces, as the API stored it.
      // Ann pays for Solo through Stripe; Bob is on a plan the operator granted.
      const billing = {
        'ann-uid': { tier: 'solo', customer: 'cus_ann-uid', subscription: 'sub_ann', status: 'active' },
        'bob-uid': { tier: 'intro', customer: null, subscription: null, status: 'none' },
      };
      for (const [uid, paid] of Object.entries(billing)) {
        await database.db.execute(sql`
          insert into users (id, email, provider, tier, stripe_customer_id, stripe_subscription_id,
            subscription_status, current_period_end, cancel_at_period_end)
          values (${uid}, ${`${uid}@example.com`}, 'google', ${paid.tier}, ${paid.customer},
            ${paid.subscription}, ${paid.status}, ${paid.customer ? '2026-12-25T00:00:00Z' : null}, ${Boolean(paid.customer)})`);
        await database.db.execute(sql`
          insert into domains (user_id, domain, status, verification_token, scan_config)
          values (${uid}, ${`${uid}.example`}, 'verified', 'tok', '{"scanFrequency":"daily","skipDiscovery":false,"useCertificateTransparency":true,"useMultiStageValidation":true}')`);
        await database.db.execute(sql`
          insert into scans (user_id, domain_id, domain, status)
          select ${uid}, id, domain, 'completed' from domains where user_id = ${uid}`);
        await database.db.execute(sql`
          insert into findings (user_id, domain, key, subdomain, latest, first_seen_at, last_seen_at)
          values (${uid}, ${`${uid}.example`}, 'k1', ${`old.${uid}.example`}, '{}', now(), now())`);
        await database.db.execute(sql`
          insert into webhooks (user_id, url, format, secret) values (${uid}, 'https://hooks.example/x', 'json', 'whsec_x')`);
        await database.db.execute(sql`
          insert into api_keys (user_id, name, prefix, hash) values (${uid}, 'ci', 'dw_abc', ${`hash-${uid}`})`);
        await database.db.execute(sql`
          insert into dns_connections (user_id, provider, label, credential_sealed, credential_hint)
          values (${uid}, 'cloudflare', 'prod', 'sealed', 'abcd')`);
        await database.db.execute(sql`
          insert into audit_log (user_id, action) values (${uid}, 'domain.added')`);
        await database.db.execute(
          sql`insert into first_scans (user_id, domain) values (${uid}, ${`${uid}.example`})`,
        );
      }
      await migrateDatabase(database);
    });

    afterAll(async () => {
      await database?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('gives every account its personal workspace, owned by it', async () => {
      const rows = await queryRows<{
        id: string;
        name: string;
        personal: boolean;
        role: string;
        user_id: string;
      }>(
        database.db,
        sql`select w.id, w.name, w.personal, m.role, m.user_id from workspaces w
            join workspace_members m on m.workspace_id = w.id order by w.id`,
      );
      expect(rows).toEqual([
        { id: 'ann-uid', name: 'Personal', personal: true, role: 'owner', user_id: 'ann-uid' },
        { id: 'bob-uid', name: 'Personal', personal: true, role: 'owner', user_id: 'bob-uid' },
      ]);
    });

    it('keeps every row of every owned table, now in the owner’s personal workspace', async () => {
      for (const table of ['domains', 'scans', 'findings', 'webhooks', 'api_keys', 'dns_connections']) {
        const rows = await queryRows<{ workspace_id: string }>(
          database.db,
          sql`select workspace_id from ${sql.identifier(table)} order by workspace_id`,
        );
        expect(
          rows.map((r) => r.workspace_id),
          table,
        ).toEqual(['ann-uid', 'bob-uid']);
      }
      expect(await count(database.db, sql`select count(*)::int as n from audit_log`)).toBe(2);
      expect(await count(database.db, sql`select count(*)::int as n from first_scans`)).toBe(2);
    });

    it("moves each account's plan and Stripe subscription onto its personal workspace", async () => {
      const rows = await queryRows<Record<string, unknown>>(
        database.db,
        sql`select id, tier, stripe_customer_id, stripe_subscription_id, subscription_status,
              current_period_end is not null as has_period_end, cancel_at_period_end
            from workspaces where id in ('ann-uid', 'bob-uid') order by id`,
      );
      expect(rows).toEqual([
        {
          id: 'ann-uid',
          tier: 'solo',
          stripe_customer_id: 'cus_ann-uid',
          stripe_subscription_id: 'sub_ann',
          subscription_status: 'active',
          has_period_end: true,
          cancel_at_period_end: true,
        },
        {
          id: 'bob-uid',
          tier: 'intro',
          stripe_customer_id: null,
          stripe_subscription_id: null,
          subscription_status: 'none',
          has_period_end: false,
          cancel_at_period_end: false,
        },
      ]);
      const left = await queryRows<{ column_name: string }>(
        database.db,
        sql`select column_name from information_schema.columns
            where table_name = 'users' and column_name in ('tier', 'stripe_customer_id')`,
      );
      expect(left).toEqual([]);
    });

    it('makes a personal workspace with each new account, and removes it with the account', async () => {
      await database.db.execute(sql`insert into users (id, provider) values ('cleo-uid', 'github')`);
      expect(
        await count(
          database.db,
          sql`select count(*)::int as n from workspace_members where workspace_id = 'cleo-uid' and user_id = 'cleo-uid' and role = 'owner'`,
        ),
      ).toBe(1);
      await database.db.execute(sql`delete from users where id = 'ann-uid'`);
      for (const table of [
        'workspaces',
        'domains',
        'scans',
        'findings',
        'webhooks',
        'api_keys',
        'dns_connections',
      ]) {
        const column = table === 'workspaces' ? 'id' : 'workspace_id';
        expect(
          await count(
            database.db,
            sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = 'ann-uid'`,
          ),
          table,
        ).toBe(0);
      }
      expect(
        await count(database.db, sql`select count(*)::int as n from domains where workspace_id = 'bob-uid'`),
      ).toBe(1);
    });
  });
}
