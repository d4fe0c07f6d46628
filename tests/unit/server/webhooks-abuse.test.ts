// Webhooks as a weapon: what a Free account could make our servers do to someone else's endpoint,
// or learn about our own network, and what stops it now.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_LIMIT, WEBHOOK_TEST_RATE } from '../../../src/core/limits.ts';
import {
  purgeWebhookDeliveries,
  WEBHOOK_DELIVERY_RETENTION_DAYS,
} from '../../../src/core/retention/webhook-deliveries.ts';
import { queryRows } from '../../../src/db/client.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `webhook abuse on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let dns: DnsFixture;
      const queued: { id: string; tenant: string }[] = [];
      beforeAll(async () => {
        dns = await startDnsServer();
      });
      const api = apiSuite(backend, () => ({
        webhooks: {
          enqueue: async (id, tenant) => void queued.push({ id, tenant }),
          allowPrivate: false,
          resolvers: [`127.0.0.1:${dns.port}`],
        },
      }));
      const { call, tag } = api;
      const users: MintedUser[] = [];

      beforeAll(async () => {
        // An internal name: a cluster's own resolver would answer it; the public internet would not.
        dns.add('intranet.corp-hooks.com', { type: 'A', data: '10.0.0.5' });
        dns.add('metadata.corp-hooks.com', { type: 'A', data: '169.254.169.254' });
        dns.add('mixed.corp-hooks.com', { type: 'A', data: '93.184.216.34' });
        dns.add('mixed.corp-hooks.com', { type: 'AAAA', data: '::1' });
        dns.add('public.corp-hooks.com', { type: 'A', data: '93.184.216.34' });
        for (const name of ['ann', 'bob', 'cat']) {
          users.push(await api.mint(name, { email: `${name}@abuse-${tag}.com` }));
        }
      });
      afterAll(async () => {
        await dns?.close();
      });

      it('regression: a name pointing into a private network is refused without saying where it points', async () => {
        const [ann] = users as [MintedUser];
        const answers: string[] = [];
        for (const host of ['intranet', 'metadata', 'mixed', 'nowhere']) {
          const res = await call('/api/webhooks', {
            method: 'POST',
            token: ann.idToken,
            body: { url: `https://${host}.corp-hooks.com/hook` },
          });
          const body = await expectError(
            res,
            400,
            `The webhook host ${host}.corp-hooks.com does not resolve to a public address`,
          );
          answers.push(body.error);
        }
        // Refused or missing, the answers are the same: no address, no reason that tells them apart.
        expect(answers.join(' ')).not.toMatch(/10\.0\.0\.5|169\.254|::1|private|loopback|link-local/);
        // The name was asked of the scan resolvers, not of this machine's.
        expect(dns.queries.some((q) => q.name === 'intranet.corp-hooks.com')).toBe(true);
      });

      it('regression: twenty parallel adds store at most the cap', async () => {
        const [, bob] = users as [MintedUser, MintedUser];
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            call('/api/webhooks', {
              method: 'POST',
              token: bob.idToken,
              body: { url: `https://public.corp-hooks.com/hook/${i}` },
            }),
          ),
        );
        const statuses = answers.map((res) => res.status);
        expect(statuses.filter((s) => s === 201)).toHaveLength(WEBHOOK_LIMIT);
        expect(statuses.filter((s) => s === 409)).toHaveLength(20 - WEBHOOK_LIMIT);
        const list = (await (await call('/api/webhooks', { token: bob.idToken })).json()) as {
          webhooks: unknown[];
        };
        expect(list.webhooks).toHaveLength(WEBHOOK_LIMIT);
      });

      it("regression: 'Send test' is rate limited per account, across all its webhooks", async () => {
        const [, bob, cat] = users as [MintedUser, MintedUser, MintedUser];
        const { webhooks } = (await (await call('/api/webhooks', { token: bob.idToken })).json()) as {
          webhooks: { id: string }[];
        };
        const before = queued.length;
        const statuses: number[] = [];
        for (let i = 0; i < WEBHOOK_TEST_RATE.limit + 3; i++) {
          const hook = webhooks[i % webhooks.length] as { id: string };
          const res = await call(`/api/webhooks/${hook.id}/test`, { method: 'POST', token: bob.idToken });
          statuses.push(res.status);
          if (res.status === 429) {
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
            await expectError(res, 429, 'Rate limit exceeded');
          }
        }
        expect(statuses).toEqual([...Array(WEBHOOK_TEST_RATE.limit).fill(202), ...Array(3).fill(429)]);
        // Only the allowed sends were queued, each under its account.
        const sent = queued.slice(before);
        expect(sent).toHaveLength(WEBHOOK_TEST_RATE.limit);
        expect(new Set(sent.map((q) => q.tenant))).toEqual(new Set([bob.uid]));
        // Another account keeps its own budget.
        const own = await call('/api/webhooks', {
          method: 'POST',
          token: cat.idToken,
          body: { url: 'https://public.corp-hooks.com/cat' },
        });
        const { webhook } = (await own.json()) as { webhook: { id: string } };
        expect(
          (await call(`/api/webhooks/${webhook.id}/test`, { method: 'POST', token: cat.idToken })).status,
        ).toBe(202);
      });

      it('purges deliveries past their retention with the retention job', async () => {
        const days = WEBHOOK_DELIVERY_RETENTION_DAYS;
        await api.db.execute(sql`update webhook_deliveries set created_at = now() - make_interval(days => ${days + 1})
          where id = (select id from webhook_deliveries order by created_at limit 1)`);
        const [before] = await queryRows<{ n: number }>(
          api.db,
          sql`select count(*)::int as n from webhook_deliveries`,
        );
        expect(await purgeWebhookDeliveries(api.db)).toBe(1);
        const [after] = await queryRows<{ n: number }>(
          api.db,
          sql`select count(*)::int as n from webhook_deliveries`,
        );
        expect(after?.n).toBe((before?.n ?? 0) - 1);
      });
    },
  );
}
