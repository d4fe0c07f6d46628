// How many outside accounts a workspace holds, and how often an account makes our server call the
// host an integration names: integrations, DNS connections and cloud accounts stop at their limit
// with 409 (the number said) before any outside call; connecting, replacing a credential, testing
// and the Jira look-ups share one count per account, past which they are 429 with Retry-After.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTEGRATION_URLS } from '../../../src/core/integrations/targets.ts';
import {
  CLOUD_ACCOUNT_LIMIT,
  DNS_CONNECTION_LIMIT,
  INTEGRATION_CALL_RATE,
  INTEGRATION_LIMIT,
} from '../../../src/core/limits.ts';
import { cloudAccounts, dnsConnections, integrations, rateLimits } from '../../../src/db/schema.ts';
import { CONNECTION_MESSAGES } from '../../../src/model/connections.ts';
import type { IntegrationView } from '../../../src/model/integrations.ts';
import { startDigitalOceanCloudFake } from '../../fixtures/cloud/digitalocean.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { type JiraFixture, startJira } from '../../fixtures/trackers/jira.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../fixtures/trackers/pagerduty.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

const ROUTING_KEY = `${'L'.repeat(28)}lmno`;
const CF_TOKEN = 'cf-limits-token-0042';
const DO_TOKEN = 'dop_v1_limits_0042';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `connection limits on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let pd: PagerDutyFixture;
      let jira: JiraFixture;
      let cloudflare: FakeProvider;
      let digitalocean: FakeProvider;
      const secrets = { key: randomBytes(32) };
      beforeAll(async () => {
        pd = await startPagerDuty();
        pd.routingKeys.add(ROUTING_KEY);
        jira = await startJira();
        jira.accounts.add('ann@acme.com:ATATT-limits');
        cloudflare = await startCloudflareFake({ token: CF_TOKEN });
        digitalocean = await startDigitalOceanCloudFake({ token: DO_TOKEN });
      });
      afterAll(async () => {
        await pd?.close();
        await jira?.close();
        await cloudflare?.close();
        await digitalocean?.close();
      });
      const api = apiSuite(backend, () => ({
        integrations: {
          secrets,
          enqueue: async () => {},
          urls: { ...DEFAULT_INTEGRATION_URLS, pagerduty: pd.url, allowPlainLoopback: true, timeoutMs: 1000 },
        },
        dnsConnections: {
          secrets,
          providerOptions: { env: { CLOUDFLARE_API_URL: cloudflare.url }, maxRetries: 0 },
        },
        cloudAccounts: {
          secrets,
          cloudOptions: { env: { DIGITALOCEAN_API_URL: digitalocean.url }, maxRetries: 1 },
        },
      }));
      const { tag } = api;
      let ann: MintedUser;
      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann-${tag}@acme.com` });
      });

      /** `n` rows of each kind, stored as a connect leaves them (their credentials never opened here). */
      const fill = async (workspaceId: string, n: number) => {
        const rows = Array.from({ length: n }, (_, i) => ({
          workspaceId,
          label: `Old ${i}`,
          credentialSealed: 'v1:unused',
          credentialHint: 'old0',
        }));
        await api.db.insert(integrations).values(
          rows.map((row) => ({
            ...row,
            kind: 'pagerduty',
            minStatus: 'likely' as const,
            settings: {},
            createdBy: ann.uid,
          })),
        );
        await api.db
          .insert(dnsConnections)
          .values(rows.map((row) => ({ ...row, provider: 'cloudflare', answeredBy: ann.uid })));
        await api.db
          .insert(cloudAccounts)
          .values(rows.map((row) => ({ ...row, provider: 'digitalocean', answeredBy: ann.uid })));
      };
      const connects = [
        {
          path: '/api/integrations',
          body: { kind: 'pagerduty', label: 'One more', credentials: { routingKey: ROUTING_KEY } },
          limit: INTEGRATION_LIMIT,
          plural: 'integrations',
          code: 'INTEGRATION_LIMIT',
          calls: () => pd.requests.length,
        },
        {
          path: '/api/dns-connections',
          body: { provider: 'cloudflare', credentials: { apiToken: CF_TOKEN } },
          limit: DNS_CONNECTION_LIMIT,
          plural: 'DNS connections',
          code: 'DNS_CONNECTION_LIMIT',
          calls: () => cloudflare.requests.length,
        },
        {
          path: '/api/cloud-accounts',
          body: { provider: 'digitalocean', credentials: { token: DO_TOKEN } },
          limit: CLOUD_ACCOUNT_LIMIT,
          plural: 'cloud accounts',
          code: 'CLOUD_ACCOUNT_LIMIT',
          calls: () => digitalocean.requests.length,
        },
      ] as const;

      it('regression: a workspace holds 10 of each kind; the 10th connects (201), the 11th is 409 with the number, before any outside call', async () => {
        expect([INTEGRATION_LIMIT, DNS_CONNECTION_LIMIT, CLOUD_ACCOUNT_LIMIT]).toEqual([10, 10, 10]);
        const team = await insertTeam(api, { name: 'Full', tier: 'intro' }, [[ann, 'owner']]);
        await fill(team.id, 9);
        for (const kind of connects) {
          expect((await team.as(ann, kind.path, { method: 'POST', body: kind.body })).status).toBe(201);
          const before = kind.calls();
          await expectError(
            await team.as(ann, kind.path, { method: 'POST', body: kind.body }),
            409,
            CONNECTION_MESSAGES.limit(kind.limit, kind.plural),
            kind.code,
          );
          expect(kind.calls()).toBe(before);
        }
        const held = async (table: typeof integrations | typeof dnsConnections | typeof cloudAccounts) =>
          (await api.db.select().from(table).where(eq(table.workspaceId, team.id))).length;
        expect([await held(integrations), await held(dnsConnections), await held(cloudAccounts)]).toEqual([
          10, 10, 10,
        ]);
      });

      it('regression: connecting, replacing a credential, testing and the Jira look-ups share one count per account; past it each is 429 with Retry-After and calls nobody', async () => {
        const team = await insertTeam(api, { name: 'Busy', tier: 'intro' }, [[ann, 'owner']]);
        const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));
        const connected = await team.as(ann, '/api/integrations', { method: 'POST', body: connects[0].body });
        expect(connected.status).toBe(201);
        expect(connected.headers.get('x-ratelimit-limit')).toBe(String(INTEGRATION_CALL_RATE.limit));
        const { integration } = (await connected.json()) as { integration: IntegrationView };
        const replace = () =>
          team.as(ann, `/api/integrations/${integration.id}`, {
            method: 'PATCH',
            body: { credentials: { routingKey: ROUTING_KEY } },
          });
        const choices = () =>
          team.as(ann, '/api/integrations/jira/choices', {
            method: 'POST',
            body: { siteUrl: jira.url, credentials: { email: 'ann@acme.com', apiToken: 'ATATT-limits' } },
          });
        const test = () => team.as(ann, `/api/integrations/${integration.id}/test`, { method: 'POST' });
        const replaced = await replace();
        expect(replaced.status).toBe(200);
        expect(remaining(replaced)).toBe(remaining(connected) - 1);
        const renamed = await team.as(ann, `/api/integrations/${integration.id}`, {
          method: 'PATCH',
          body: { label: 'Renamed' },
        });
        // A new label calls nobody, and is not counted.
        expect(renamed.status).toBe(200);
        expect(renamed.headers.get('x-ratelimit-remaining')).toBeNull();
        const tested = await test();
        expect(tested.status).toBe(202);

        // The rest of the hour's count used up (as 120 calls would), by the same account.
        await api.db
          .update(rateLimits)
          .set({ count: INTEGRATION_CALL_RATE.limit })
          .where(eq(rateLimits.key, `${INTEGRATION_CALL_RATE.name}:${ann.uid}`));
        const before = { pd: pd.requests.length, jira: jira.requests.length };
        for (const refused of [
          await team.as(ann, '/api/integrations', { method: 'POST', body: connects[0].body }),
          await replace(),
          await choices(),
          await test(),
        ]) {
          await expectError(refused, 429, 'Rate limit exceeded', 'RATE_LIMITED');
          expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(
            INTEGRATION_CALL_RATE.windowSeconds,
          );
        }
        expect({ pd: pd.requests.length, jira: jira.requests.length }).toEqual(before);
        expect(
          (await api.db.select().from(integrations).where(eq(integrations.workspaceId, team.id))).length,
        ).toBe(1);
      });
    },
  );
}
