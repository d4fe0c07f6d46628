import { createHash } from 'node:crypto';
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '../../../src/core/users/users.ts';
import { queryRows } from '../../../src/db/client.ts';
import * as schema from '../../../src/db/schema.ts';
import { AUDIT_ACTIONS } from '../../../src/model/activity.ts';
import { demoFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { firebaseTokenVerifier } from '../../../src/server/auth/verifier.ts';
import { startWorker } from '../../../src/worker/queue.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { type MintedUser, TEST_PROJECT_ID } from '../../helpers/emulator.ts';

/**
 * Each table that holds a user_id or a workspace_id (of the personal workspace, whose id is the
 * uid), and the section of the export that carries its rows.
 */
const EXPORTED_BY_USER_ID: Record<string, string> = {
  domains: 'domains',
  scans: 'scans',
  findings: 'findings',
  webhooks: 'webhooks',
  api_keys: 'apiKeys',
  audit_log: 'auditLogs',
  first_scans: 'firstScans',
  dns_connections: 'dnsConnections',
  integrations: 'integrations',
  cloud_accounts: 'cloudAccounts',
};

const tables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

type Export = Record<string, { id: string | number }[]> & { user: { uid: string } };

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `account export and deletion on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async (id) => void queued.push(id) }, queueUp: () => true },
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;

      /** Everything an account can own, made through the API where there is one. */
      async function populate(user: MintedUser, domain: string, email: string) {
        const db = api.db;
        await call('/auth/verify', { method: 'POST', token: user.idToken });
        const added = await call('/api/domains', { method: 'POST', token: user.idToken, body: { domain } });
        expect(added.status).toBe(201);
        const { domain: view } = (await added.json()) as { domain: { id: string } };
        const [scan] = await db
          .insert(schema.scans)
          .values({ workspaceId: user.uid, domainId: view.id, domain, status: 'completed' })
          .returning();
        await db.insert(schema.firstScans).values({ userId: user.uid, domain });
        await db.insert(schema.dnsConnections).values({
          workspaceId: user.uid,
          provider: 'cloudflare',
          label: 'Cloudflare',
          credentialSealed: `v1:sealed-${tag}`,
          credentialHint: 'abcd',
        });
        await db.insert(schema.integrations).values({
          workspaceId: user.uid,
          kind: 'pagerduty',
          label: 'PagerDuty',
          minStatus: 'likely',
          settings: {},
          credentialSealed: `v1:sealed-pd-${tag}`,
          credentialHint: 'abcd',
        });
        const [cloud] = await db
          .insert(schema.cloudAccounts)
          .values({
            workspaceId: user.uid,
            provider: 'aws',
            label: 'AWS',
            credentialSealed: `v1:sealed-${tag}`,
            credentialHint: 'WXYZ',
          })
          .returning();
        await db.insert(schema.cloudInventory).values({
          cloudAccountId: cloud.id,
          kind: 'address',
          type: 'elastic-ip',
          value: `192.0.2.${user.uid.length}`,
          name: 'eipalloc-1',
          firstSeenAt: new Date(),
          lastSeenAt: new Date(),
        });
        await db.insert(schema.findings).values({
          workspaceId: user.uid,
          domain,
          key: createHash('sha256').update(domain).digest('hex'),
          subdomain: `old.${domain}`,
          latest: {} as never,
          firstSeenAt: new Date(),
          lastSeenAt: new Date(),
        });
        const [hook] = await db
          .insert(schema.webhooks)
          .values({
            workspaceId: user.uid,
            url: `https://hooks.${domain}/x`,
            format: 'json',
            secret: `whsec_${tag}`,
          })
          .returning();
        await db.insert(schema.webhookDeliveries).values({
          webhookId: hook?.id as string,
          scanId: scan?.id,
          kind: 'changes',
          payload: { for: domain },
        });
        await db.insert(schema.alertMails).values({ scanId: scan?.id as string, userId: user.uid });
        await db.insert(schema.apiKeys).values({
          workspaceId: user.uid,
          name: 'ci',
          prefix: 'dw_abc',
          hash: createHash('sha256').update(email).digest('hex'),
        });
        await db.insert(schema.mailingListSignups).values({ email: email.toUpperCase(), source: 'home' });
        await db.insert(schema.rateLimits).values({ key: `api:${user.uid}`, count: 3, resetAt: new Date() });
        expect((await call('/api/auth/export', { token: user.idToken })).status).toBe(200);
        return { scanId: scan?.id as string };
      }

      beforeAll(async () => {
        ann = await api.mint('ann', { email: `ann@ann-${tag}.com`, name: 'Ann' });
        bob = await api.mint('bob', { email: `bob@bob-${tag}.com` });
      });

      it('needs a signed-in caller', async () => {
        await expectError(await call('/api/auth/export'), 401, 'Authentication required');
        await expectError(
          await call('/api/auth/account', { method: 'DELETE' }),
          401,
          'Authentication required',
        );
      });

      it("exports every row of the user's tables, and nothing of another user's", async () => {
        const { scanId } = await populate(ann, `ann-${tag}.com`, `ann@ann-${tag}.com`);
        await populate(bob, `bob-${tag}.com`, `bob@bob-${tag}.com`);
        const res = await call('/api/auth/export', { token: ann.idToken });
        expect(res.status).toBe(200);
        const today = new Date().toISOString().slice(0, 10);
        expect(res.headers.get('content-disposition')).toBe(
          `attachment; filename="danglewatch-export-${today}.json"`,
        );
        const body = (await res.json()) as Export;
        expect(body.user.uid).toBe(ann.uid);

        const ownerColumn = (table: PgTable) => {
          const names = getTableConfig(table).columns.map((c) => c.name);
          return names.includes('user_id')
            ? 'user_id'
            : names.includes('workspace_id')
              ? 'workspace_id'
              : undefined;
        };
        // Keyed by workspace and user, without an id of their own: the export's `workspaces`; and
        // the alerts mailed to the user, keyed by scan and user: its `alertMails`.
        const memberships = ['workspace_members', 'workspace_invitations', 'alert_mails'];
        const owned = tables.filter(
          (table) => ownerColumn(table) && !memberships.includes(getTableName(table)),
        );
        expect(owned.map((t) => getTableName(t)).sort()).toEqual(Object.keys(EXPORTED_BY_USER_ID).sort());
        for (const table of owned) {
          const name = getTableName(table);
          const rows = await queryRows<{ id: string; user_id: string }>(
            api.db,
            sql`select id::text, ${sql.identifier(ownerColumn(table) as string)} as user_id from ${table}`,
          );
          const exported = new Set(
            (body[EXPORTED_BY_USER_ID[name] as string] ?? []).map((r) => String(r.id)),
          );
          const mine = rows.filter((r) => r.user_id === ann.uid);
          expect(mine.length, name).toBeGreaterThan(0);
          for (const r of rows) expect(exported.has(r.id), `${name} ${r.id}`).toBe(r.user_id === ann.uid);
        }
        expect(body.workspaces).toEqual([
          expect.objectContaining({ id: ann.uid, name: 'Personal', personal: true, role: 'owner' }),
        ]);
        expect(body.webhookDeliveries).toHaveLength(1);
        expect(body.cloudInventory).toEqual([
          expect.objectContaining({ cloudAccountId: body.cloudAccounts?.[0]?.id }),
        ]);
        expect(body.alertMails).toEqual([{ scanId, sentAt: expect.any(String) }]);
        expect(body.mailingList).toHaveLength(1);
        expect(JSON.stringify(body)).not.toContain(bob.uid);
        // Credentials stay out of the file.
        expect(JSON.stringify(body)).not.toContain(`whsec_${tag}`);
        expect(JSON.stringify(body)).not.toContain(`sealed-${tag}`);
        expect(body.apiKeys?.[0]).not.toHaveProperty('hash');
        const actions = (body.auditLogs as unknown as { action: string; timestamp: string }[]).map(
          (a) => a.action,
        );
        expect(actions).toEqual(
          expect.arrayContaining(['account.signed_in', 'domain.added', 'data.exported']),
        );
        for (const action of actions) expect(AUDIT_ACTIONS).toContain(action);
      });

      it('refuses deletion while a paid subscription would renew', async () => {
        await api.db
          .update(schema.workspaces)
          .set({ tier: 'intro', stripeSubscriptionId: 'sub_x', subscriptionStatus: 'active' })
          .where(eq(schema.workspaces.id, ann.uid));
        await expectError(
          await call('/api/auth/account', { method: 'DELETE', token: ann.idToken }),
          409,
          'Please cancel your subscription first',
          'SUBSCRIPTION_ACTIVE',
        );
        await api.db
          .update(schema.workspaces)
          .set({ cancelAtPeriodEnd: true })
          .where(eq(schema.workspaces.id, ann.uid));
      });

      it("deletes every row holding the user's id, their queued jobs, and the sign-in account", async () => {
        const worker = await startWorker(api.database, pino({ level: 'silent' }), {});
        const [scan] = await api.db.select().from(schema.scans).where(eq(schema.scans.workspaceId, ann.uid));
        // Far in the future, so the worker does not run it before the deletion.
        await worker.queue.enqueue(scan?.id as string, 3600);
        await worker.stop();

        const res = await call('/api/auth/account', { method: 'DELETE', token: ann.idToken });
        expect(res.status).toBe(204);

        const everyTable = await queryRows<{ table_schema: string; table_name: string }>(
          api.db,
          sql`select table_schema, table_name from information_schema.tables
              where table_type = 'BASE TABLE' and table_schema in ('public', 'pgboss')`,
        );
        expect(everyTable.length).toBeGreaterThan(tables.length);
        for (const { table_schema, table_name } of everyTable) {
          const [found] = await queryRows<{ n: number }>(
            api.db,
            sql`select count(*)::int as n from ${sql.identifier(table_schema)}.${sql.identifier(table_name)} t
                where t::text like ${`%${ann.uid}%`} or t::text ilike ${`%ann-${tag}.com%`}`,
          );
          expect(found?.n, `${table_schema}.${table_name}`).toBe(0);
        }
        const [jobs] = await queryRows<{ n: number }>(
          api.db,
          sql`select count(*)::int as n from pgboss.job where data->>'scanId' = ${scan?.id}`,
        );
        expect(jobs?.n).toBe(0);
        // Bob keeps everything.
        const bobs = await call('/api/auth/export', { token: bob.idToken });
        expect(((await bobs.json()) as Export).domains).toHaveLength(1);
        const [counter] = await api.db
          .select()
          .from(schema.rateLimits)
          .where(eq(schema.rateLimits.key, `api:${bob.uid}`));
        expect(counter).toBeDefined();

        // The old token is refused: the sign-in account is gone too.
        await expectError(await call('/auth/user', { token: ann.idToken }), 401, 'Authentication required');
        await expect(api.verifier.verifyIdToken(ann.idToken)).rejects.toMatchObject({
          code: 'auth/user-not-found',
        });
      });

      it('a token another process remembers cannot bring a deleted account back', async () => {
        const carl = await api.mint('carl', { email: `carl@carl-${tag}.com` });
        const processes = [0, 1].map(() => {
          const remembering = firebaseTokenVerifier(TEST_PROJECT_ID, { cacheMs: 60_000 });
          const auth = {
            verifier: remembering,
            publicConfig: { firebase: demoFirebaseConfig() },
            findAccount: (uid: string) => findUser(api.db, uid),
          };
          const instance = testApp(api.database, { auth });
          return { remembering, call: apiCaller({ request: (path, init) => instance.request(path, init) }) };
        });
        try {
          for (const { call: viaProcess } of processes) {
            expect((await viaProcess('/auth/user', { token: carl.idToken })).status).toBe(200);
          }
          const [first, second] = processes as [(typeof processes)[0], (typeof processes)[0]];
          // The token is remembered, the account row is not: a change through one process shows in the other.
          const renamed = await first.call('/api/auth/user/profile', {
            method: 'PATCH',
            token: carl.idToken,
            body: { displayName: 'Carl Renamed' },
          });
          expect(renamed.status).toBe(200);
          const seen = await second.call('/auth/user', { token: carl.idToken });
          expect(((await seen.json()) as { user: { displayName: string } }).user.displayName).toBe(
            'Carl Renamed',
          );
          const deleted = await first.call('/api/auth/account', { method: 'DELETE', token: carl.idToken });
          expect(deleted.status).toBe(204);
          // The second process still remembers the token; the missing row makes it ask Firebase.
          await expectError(
            await second.call('/auth/user', { token: carl.idToken }),
            401,
            'Authentication required',
          );
          const rows = await api.db.select().from(schema.users).where(eq(schema.users.id, carl.uid));
          expect(rows).toEqual([]);
        } finally {
          for (const { remembering } of processes) await remembering.close();
        }
      });
    },
  );
}
