// DNS provider connections through the API, against loopback fakes that speak each provider's wire
// format: a credential is checked with a read call, stored sealed, shown by its last four
// characters only, and a zone it reads, once public DNS delegates it there, becomes a verified domain
// with the zone as its inventory (zone-proof.test.ts holds the zones that prove nothing).
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SECRETS_KEY } from '../../../src/core/connections/secrets.ts';
import type { ConnectionView } from '../../../src/core/dns-connections/connections.ts';
import { DNS_CONNECTION_RATE, DNS_READ_RATE } from '../../../src/core/limits.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { dnsConnections, scans } from '../../../src/db/schema.ts';
import { CONNECTION_LABEL_MAX } from '../../../src/model/constants.ts';
import type { DomainView } from '../../../src/model/contract.ts';
import { DOMAIN_MESSAGES } from '../../../src/model/domain-input.ts';
import { INPUT_MESSAGES } from '../../../src/model/messages.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import { startDigitalOceanFake } from '../../fixtures/dns-providers/digitalocean.ts';
import { assignedNameServers, type FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const CF_TOKEN = 'cf-read-only-token-abcd';
const DO_TOKEN = 'dop_v1_read_only_wxyz';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `DNS connections on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let cloudflare: FakeProvider;
      let digitalocean: FakeProvider;
      let dns: DnsFixture;
      let keyless: ReturnType<typeof testApp>;
      const queued: string[] = [];
      const syncs: string[] = [];
      const scanning = () => ({
        queue: { enqueue: async (id: string) => void queued.push(id) },
        queueUp: () => true,
        resolvers: [`127.0.0.1:${dns.port}`],
      });
      const providerOptions = () => ({
        env: { CLOUDFLARE_API_URL: cloudflare.url, DIGITALOCEAN_API_URL: digitalocean.url },
        maxRetries: 0,
      });
      beforeAll(async () => {
        cloudflare = await startCloudflareFake({ token: CF_TOKEN, pageSize: 2 });
        digitalocean = await startDigitalOceanFake({ token: DO_TOKEN });
        dns = await startDnsServer();
      });
      const api = apiSuite(backend, () => ({
        scanning: scanning(),
        dnsConnections: {
          secrets: { key: randomBytes(32) },
          providerOptions: providerOptions(),
          enqueueSync: async (id) => void syncs.push(id),
        },
      }));
      const { call, tag } = api;
      const callKeyless = apiCaller({ request: (path, init) => keyless.request(path, init) });
      const zone = `conn-${tag}.com`;
      let ann: MintedUser;
      let bob: MintedUser;

      beforeAll(async () => {
        cloudflare.zones.set(zone, [
          { name: zone, type: 'NS', ttl: 3600, data: 'ns1.cloudflare.com' },
          { name: `www.${zone}`, type: 'A', ttl: 300, data: '93.184.216.34' },
          { name: `campaign-2019.${zone}`, type: 'CNAME', ttl: 300, data: 'gone-campaign.herokuapp.com' },
        ]);
        cloudflare.zones.set(`second-${tag}.com`, [
          { name: `second-${tag}.com`, type: 'A', ttl: 300, data: '93.184.216.34' },
        ]);
        // Public DNS delegates the first zone to the name servers Cloudflare assigned to it.
        for (const ns of assignedNameServers(cloudflare, zone, 'cloudflare'))
          dns.add(zone, { type: 'NS', data: ns });
        keyless = testApp(api.database, {
          auth: api.auth,
          scanning: scanning(),
          dnsConnections: {
            secrets: { key: undefined, reason: NO_SECRETS_KEY },
            providerOptions: providerOptions(),
          },
        });
        ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
        bob = await api.signIn('bob', { email: `bob@bob-${tag}.com` }, { verify: true });
      });
      afterAll(async () => {
        await cloudflare?.close();
        await digitalocean?.close();
        await dns?.close();
      });

      const connect = (token: string, body: unknown) =>
        call('/api/dns-connections', { method: 'POST', token, body });

      it('needs a signed-in caller for every call', async () => {
        for (const [method, path] of [
          ['GET', '/api/dns-connections'],
          ['POST', '/api/dns-connections'],
          ['POST', `/api/dns-connections/${randomBytes(16).toString('hex')}/zones`],
          ['DELETE', `/api/dns-connections/${randomBytes(16).toString('hex')}`],
        ] as const) {
          await expectError(await call(path, { method }), 401, 'Authentication required');
        }
      });

      it('refuses bad input, and a credential the provider refuses, storing nothing', async () => {
        expect((await connect(ann.idToken, { provider: 'godaddy', credentials: {} })).status).toBe(400);
        expect(
          (await connect(ann.idToken, { provider: 'cloudflare', credentials: { token: 'x' } })).status,
        ).toBe(400);
        const labelled = await connect(ann.idToken, {
          provider: 'cloudflare',
          label: 'x'.repeat(CONNECTION_LABEL_MAX + 1),
          credentials: { apiToken: CF_TOKEN },
        });
        expect(labelled.status).toBe(400);
        expect(await labelled.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
        // A character beyond ASCII (a curly quote from a formatted page) is refused before any
        // provider call, never as the provider's fault.
        const calls = cloudflare.requests.length;
        await expectError(
          await connect(ann.idToken, {
            provider: 'cloudflare',
            credentials: { apiToken: `${CF_TOKEN}\u201d` },
          }),
          400,
          `The API token ${INPUT_MESSAGES.notAscii}`,
          'VALIDATION_ERROR',
        );
        await expectError(
          await connect(ann.idToken, { provider: 'cloudflare', credentials: { apiToken: 'x'.repeat(4097) } }),
          400,
          'The API token is too long: at most 4,096 characters',
          'VALIDATION_ERROR',
        );
        expect(cloudflare.requests.length).toBe(calls);
        const refused = await connect(ann.idToken, {
          provider: 'cloudflare',
          credentials: { apiToken: 'wrong-token' },
        });
        expect(refused.status).toBe(400);
        const body = await refused.text();
        expect(JSON.parse(body)).toMatchObject({
          code: 'PROVIDER_REFUSED',
          error: 'Cloudflare did not accept the credential',
          details: [{ path: 'provider', message: 'Invalid access token (code 9109)' }],
        });
        expect(body).not.toContain('wrong-token');
        expect(await api.db.select().from(dnsConnections)).toEqual([]);
        // Without a key the server says why it cannot keep credentials.
        await expectError(
          await callKeyless('/api/dns-connections', {
            method: 'POST',
            token: ann.idToken,
            body: { provider: 'cloudflare', credentials: { apiToken: CF_TOKEN } },
          }),
          503,
          'DNS connections are not set up on this server',
        );
      });

      let connection: ConnectionView;

      it('checks a credential with a read call, stores it sealed and lists the zones it reads', async () => {
        const res = await connect(ann.idToken, {
          provider: 'cloudflare',
          label: 'Main account',
          credentials: { apiToken: CF_TOKEN },
        });
        expect(res.status).toBe(201);
        const text = await res.text();
        expect(text).not.toContain(CF_TOKEN);
        ({ connection } = JSON.parse(text) as { connection: ConnectionView });
        expect(connection).toMatchObject({
          provider: 'cloudflare',
          label: 'Main account',
          credentialHint: 'abcd',
          createdBy: `ann@${zone}`,
          syncError: null,
          zones: [
            { zone, domainId: null },
            { zone: `second-${tag}.com`, domainId: null },
          ],
        });
        const [row] = await api.db.select().from(dnsConnections).where(eq(dnsConnections.id, connection.id));
        expect(row?.credentialSealed).toMatch(/^v1:/);
        expect(row?.credentialSealed).not.toContain(CF_TOKEN);
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(DNS_CONNECTION_RATE.limit));
        const list = await call('/api/dns-connections', { token: ann.idToken });
        expect(list.headers.get('x-ratelimit-limit')).toBe(String(DNS_READ_RATE.limit));
        const listed = (await list.json()) as { connections: ConnectionView[] };
        expect(listed.connections.map((c) => c.id)).toEqual([connection.id]);
        expect(
          ((await (await call('/api/dns-connections', { token: bob.idToken })).json()) as { connections: [] })
            .connections,
        ).toEqual([]);
      });

      it('monitors a zone that public DNS delegates to it: a verified domain standing on the zone, the zone as its inventory, its first scan queued', async () => {
        const res = await call(`/api/dns-connections/${connection.id}/zones`, {
          method: 'POST',
          token: ann.idToken,
          body: { zone },
        });
        expect(res.status).toBe(201);
        const { domain } = (await res.json()) as { domain: DomainView };
        expect(domain).toMatchObject({
          domain: zone,
          status: 'verified',
          proof: 'zone',
          inventory: { source: 'cloudflare', records: 3 },
          scanStatus: 'pending',
        });
        const records = (await (
          await call(`/api/domains/${domain.id}/records`, { token: ann.idToken })
        ).json()) as {
          source: string;
          records: { name: string; source: string }[];
        };
        expect(records.source).toBe('cloudflare');
        // The card's summary comes with the domain list, without reading the records.
        const list = (await (await call('/api/domains', { token: ann.idToken })).json()) as {
          domains: DomainView[];
        };
        expect(list.domains.find((d) => d.id === domain.id)?.inventory).toMatchObject({
          source: 'cloudflare',
          records: 3,
        });
        expect(records.records.map((r) => r.name)).toContain(`campaign-2019.${zone}`);
        const [scan] = await api.db.select().from(scans).where(eq(scans.domainId, domain.id));
        expect(scan?.trigger).toBe('scheduled');
        expect(queued).toContain(scan?.id);
        // A zone the credential does not read, and the free plan's one domain, are refused.
        expect(
          (
            await call(`/api/dns-connections/${connection.id}/zones`, {
              method: 'POST',
              token: ann.idToken,
              body: { zone: 'other.com' },
            })
          ).status,
        ).toBe(404);
        await setPlan(api.db, `ann@${zone}`, 'free');
        expect(
          (
            await call(`/api/dns-connections/${connection.id}/zones`, {
              method: 'POST',
              token: ann.idToken,
              body: { zone: `second-${tag}.com` },
            })
          ).status,
        ).toBe(409);
        const listed = (await (await call('/api/dns-connections', { token: ann.idToken })).json()) as {
          connections: ConnectionView[];
        };
        expect(listed.connections[0]?.zones).toEqual([
          { zone, domainId: domain.id },
          { zone: `second-${tag}.com`, domainId: null },
        ]);
      });

      it('counts a zone file uploaded beside the connected zone as itself, and the zone as itself', async () => {
        const list = async () =>
          (
            (await (await call('/api/domains', { token: ann.idToken })).json()) as {
              domains: DomainView[];
            }
          ).domains.find((d) => d.domain === zone);
        const domain = await list();
        // Two records: one the zone holds too (www), one of the file's own.
        const res = await api.app.request(`/api/domains/${domain?.id}/zone-file`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${ann.idToken}`, 'content-type': 'text/plain' },
          body: `$ORIGIN ${zone}.\n$TTL 300\nwww IN A 93.184.216.34\nstaging IN CNAME staging.herokuapp.com.\n`,
        });
        expect(res.status).toBe(200);
        const inventory = (await list())?.inventory;
        expect(inventory?.source).toBe('zone-file');
        // The inventory holds four records once each; each source says its own.
        expect(inventory?.records).toBe(4);
        expect(inventory?.sources.map((s) => `${s.source} ${s.records}`)).toEqual([
          'zone-file 2',
          'cloudflare 3',
        ]);
      });

      it("keeps another user's connection out of reach", async () => {
        for (const [method, path, body] of [
          ['POST', `/api/dns-connections/${connection.id}/zones`, { zone }],
          ['POST', `/api/dns-connections/${connection.id}/sync`, undefined],
          ['DELETE', `/api/dns-connections/${connection.id}`, undefined],
        ] as const) {
          await expectError(
            await call(path, { method, token: bob.idToken, body }),
            404,
            'DNS connection not found',
          );
        }
      });

      it('queues a sync on request, and removing the connection deletes its credential at once', async () => {
        const sync = await call(`/api/dns-connections/${connection.id}/sync`, {
          method: 'POST',
          token: ann.idToken,
        });
        expect(sync.status).toBe(202);
        expect(syncs).toEqual([connection.id]);
        expect(
          (await call(`/api/dns-connections/${connection.id}`, { method: 'DELETE', token: ann.idToken }))
            .status,
        ).toBe(204);
        expect(
          await api.db.select().from(dnsConnections).where(eq(dnsConnections.id, connection.id)),
        ).toEqual([]);
        // Only reads were ever sent to the provider.
        expect(cloudflare.requests.length).toBeGreaterThan(0);
        expect(cloudflare.requests.every((r) => r.method === 'GET')).toBe(true);
      });

      it('connects DigitalOcean the same way', async () => {
        digitalocean.zones.set(`do-${tag}.com`, [
          { name: `do-${tag}.com`, type: 'A', ttl: 300, data: '93.184.216.34' },
        ]);
        const res = await connect(bob.idToken, {
          provider: 'digitalocean',
          credentials: { token: DO_TOKEN },
        });
        expect(res.status).toBe(201);
        const { connection: made } = (await res.json()) as { connection: ConnectionView };
        expect(made).toMatchObject({
          provider: 'digitalocean',
          credentialHint: 'wxyz',
          zones: [{ zone: `do-${tag}.com` }],
        });
        // Regression: the Free plan covers the company e-mail's domain, whichever way it is added.
        await expectError(
          await call(`/api/dns-connections/${made.id}/zones`, {
            method: 'POST',
            token: bob.idToken,
            body: { zone: `do-${tag}.com` },
          }),
          400,
          DOMAIN_MESSAGES.freeTier(`bob-${tag}.com`),
        );
        expect(digitalocean.requests.every((r) => r.method === 'GET')).toBe(true);
      });
    },
  );
}
