// A connected zone proves its domain only by its delegation. Cloudflare (zones left pending), Route 53,
// DigitalOcean and Cloud DNS let anyone create a zone for any name, so an attacker's paid account
// connects a token whose account holds a zone for a victim's domain: these tests are that attack,
// through the HTTP API against loopback fakes of the providers and a loopback DNS server standing in
// for public DNS, and what the zone's owner sees when the delegation is really theirs.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src/core/dns-connections/connections.ts';
import { runZoneSync, type ZoneSyncSettings } from '../../../src/core/dns-connections/scheduled-sync.ts';
import { scheduleDueScans } from '../../../src/core/domains/scheduled-scans.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { dnsConnectionZones, domains, scans } from '../../../src/db/schema.ts';
import { VERIFICATION_GRACE_MS } from '../../../src/model/constants.ts';
import type { DomainView } from '../../../src/model/contract.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import { startDigitalOceanFake } from '../../fixtures/dns-providers/digitalocean.ts';
import { assignedNameServers, type FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { startRoute53Fake } from '../../fixtures/dns-providers/route53.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const CF_TOKEN = 'cf-attacker-token-0001';
const DO_TOKEN = 'dop_v1_attacker_0002';
const AWS = { accessKeyId: 'AKIAATTACKER0003', secretAccessKey: 'attacker-secret-0003' };
const logger = pino({ level: 'silent' });
const DAY = 24 * 60 * 60_000;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `a zone listing proves nothing on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let cloudflare: FakeProvider;
      let route53: FakeProvider;
      let digitalocean: FakeProvider;
      let dns: DnsFixture;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      const secrets = { key: randomBytes(32) };
      const providerOptions = () => ({
        env: {
          CLOUDFLARE_API_URL: cloudflare.url,
          ROUTE53_ENDPOINT: route53.url,
          DIGITALOCEAN_API_URL: digitalocean.url,
        },
        maxRetries: 0,
      });
      const resolvers = () => [`127.0.0.1:${dns.port}`];
      beforeAll(async () => {
        cloudflare = await startCloudflareFake({ token: CF_TOKEN });
        route53 = await startRoute53Fake(AWS);
        digitalocean = await startDigitalOceanFake({ token: DO_TOKEN });
        dns = await startDnsServer();
      });
      const api = apiSuite(backend, () => ({
        scanning: { queue, queueUp: () => true, resolvers: resolvers() },
        dnsConnections: { secrets, providerOptions: providerOptions() },
      }));
      const { call, tag } = api;
      const victim = `victim-${tag}.com`;
      let mallory: MintedUser;
      const syncSettings = (): ZoneSyncSettings => ({
        secrets,
        syncMinutes: 15,
        providerOptions: providerOptions(),
        resolvers: resolvers(),
      });

      beforeAll(async () => {
        // The victim's real delegation, and their TXT record of another DangleWatch account.
        dns.add(victim, { type: 'NS', data: 'ns1.victim-dns.net' });
        dns.add(victim, { type: 'NS', data: 'ns2.victim-dns.net' });
        dns.add(victim, { type: 'TXT', data: 'danglewatch-verify=someone-elses-token' });
        mallory = await api.signIn('mallory', { email: `mallory@mallory-${tag}.com` }, { verify: true });
        await setPlan(api.db, `mallory@mallory-${tag}.com`, 'pro-solo');
      });
      afterAll(async () => {
        await Promise.all([cloudflare?.close(), route53?.close(), digitalocean?.close(), dns?.close()]);
      });

      const connect = async (provider: string, credentials: object) => {
        const res = await call('/api/dns-connections', {
          method: 'POST',
          token: mallory.idToken,
          body: { provider, credentials },
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { connection: ConnectionView }).connection;
      };
      const monitor = async (connectionId: string, zone: string) => {
        const res = await call(`/api/dns-connections/${connectionId}/zones`, {
          method: 'POST',
          token: mallory.idToken,
          body: { zone },
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { domain: DomainView }).domain;
      };
      const scansOf = (domainId: string) => api.db.select().from(scans).where(eq(scans.domainId, domainId));
      /** The harm the attack is after: a scan of the victim's names, started or asked for. */
      const expectNoScan = async (domain: DomainView) => {
        expect(await scansOf(domain.id)).toEqual([]);
        const asked = await call('/scan/api/v1/scan', {
          method: 'POST',
          token: mallory.idToken,
          body: { domain: domain.domain, scanType: 'dangling-subdomains' },
        });
        expect(asked.status).toBe(409);
        expect(await asked.json()).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
      };

      let pendingConnection: ConnectionView;
      let pendingDomain: DomainView;

      it('a pending Cloudflare zone for the victim becomes no verified domain, and no scan, at link or at sync', async () => {
        cloudflare.zones.set(victim, [
          { name: `staging.${victim}`, type: 'CNAME', ttl: 300, data: 'victim-staging.herokuapp.com' },
        ]);
        cloudflare.delegations.set(victim, {
          status: 'pending',
          nameServers: ['ada.ns.cloudflare.test', 'bob.ns.cloudflare.test'],
        });
        pendingConnection = await connect('cloudflare', { apiToken: CF_TOKEN });
        pendingDomain = await monitor(pendingConnection.id, victim);
        expect(pendingDomain).toMatchObject({ status: 'pending', proof: null, isActive: false });
        expect(pendingDomain.error).toContain('not active (status pending)');
        // The zone is linked and its records kept, for when the delegation is theirs.
        expect(pendingDomain.inventory).toMatchObject({ source: 'cloudflare', records: 1 });
        await expectNoScan(pendingDomain);
        // Every later sync checks again, and keeps it unproven.
        await runZoneSync(api.db, queue, pendingConnection.id, syncSettings(), logger, new Date());
        const [row] = await api.db.select().from(domains).where(eq(domains.id, pendingDomain.id));
        expect(row).toMatchObject({ status: 'pending', proof: null });
        await expectNoScan(pendingDomain);
      });

      it('an active Cloudflare zone whose public NS are elsewhere proves nothing either', async () => {
        cloudflare.delegations.set(victim, {
          status: 'active',
          nameServers: ['ada.ns.cloudflare.test', 'bob.ns.cloudflare.test'],
        });
        await runZoneSync(api.db, queue, pendingConnection.id, syncSettings(), logger, new Date());
        const [row] = await api.db.select().from(domains).where(eq(domains.id, pendingDomain.id));
        expect(row).toMatchObject({ status: 'pending', proof: null });
        expect(row?.verificationError).toContain(
          `Public DNS delegates ${victim} to ns1.victim-dns.net, ns2.victim-dns.net, not to the name servers Cloudflare assigned`,
        );
        await expectNoScan(pendingDomain);
      });

      it('a Route 53 hosted zone with another delegation set proves nothing', async () => {
        const zone = `r53-victim-${tag}.com`;
        route53.zones.set(zone, [{ name: `www.${zone}`, type: 'A', ttl: 300, data: '192.0.2.10' }]);
        route53.delegations.set(zone, {
          nameServers: [
            'ns-1.awsdns-01.org',
            'ns-2.awsdns-02.co.uk',
            'ns-3.awsdns-03.com',
            'ns-4.awsdns-04.net',
          ],
        });
        // The victim's real hosted zone is another one, with its own delegation set.
        for (const ns of [
          'ns-9.awsdns-09.org',
          'ns-8.awsdns-08.co.uk',
          'ns-7.awsdns-07.com',
          'ns-6.awsdns-06.net',
        ])
          dns.add(zone, { type: 'NS', data: ns });
        const made = await connect('route53', AWS);
        const domain = await monitor(made.id, zone);
        expect(domain).toMatchObject({ status: 'pending', proof: null });
        expect(domain.error).toContain('not to the name servers Amazon Route 53 assigned to this zone');
        await expectNoScan(domain);
        // Only reads went to AWS.
        expect(route53.requests.every((r) => r.method === 'GET')).toBe(true);
      });

      it('a DigitalOcean zone whose public NS point elsewhere proves nothing', async () => {
        const zone = `do-victim-${tag}.com`;
        digitalocean.zones.set(zone, [{ name: zone, type: 'A', ttl: 300, data: '192.0.2.20' }]);
        dns.add(zone, { type: 'NS', data: 'ns1.victim-dns.net' });
        const made = await connect('digitalocean', { token: DO_TOKEN });
        const domain = await monitor(made.id, zone);
        expect(domain).toMatchObject({ status: 'pending', proof: null });
        expect(domain.error).toContain('DigitalOcean');
        await expectNoScan(domain);
      });

      it('a zone nobody delegated, for a name with no NS at all, says so and proves nothing', async () => {
        const zone = `nowhere-${tag}.com`;
        digitalocean.zones.set(zone, [{ name: zone, type: 'A', ttl: 300, data: '192.0.2.30' }]);
        const made = await connect('digitalocean', { token: DO_TOKEN });
        const domain = await monitor(made.id, zone);
        expect(domain).toMatchObject({ status: 'pending', proof: null });
        expect(domain.error).toContain(`Public DNS has no name servers for ${zone}`);
      });

      it('a domain the zone listing "verified" before the rule goes back to pending at its next sync', async () => {
        const [domainRow] = await api.db.select().from(domains).where(eq(domains.id, pendingDomain.id));
        // As the migration leaves a domain that a zone listing made verified.
        await api.db
          .update(domains)
          .set({ status: 'verified', proof: 'zone', verifiedAt: new Date(), verificationError: null })
          .where(eq(domains.id, pendingDomain.id));
        expect(domainRow).toBeTruthy();
        await runZoneSync(api.db, queue, pendingConnection.id, syncSettings(), logger, new Date());
        const [row] = await api.db.select().from(domains).where(eq(domains.id, pendingDomain.id));
        expect(row).toMatchObject({ status: 'pending', proof: null });
        await expectNoScan(pendingDomain);
      });

      it("the owner's zone proves the domain once the delegation is in place, and its first scan runs", async () => {
        const zone = `owned-${tag}.com`;
        cloudflare.zones.set(zone, [{ name: `www.${zone}`, type: 'A', ttl: 300, data: '192.0.2.40' }]);
        cloudflare.delegations.set(zone, {
          status: 'pending',
          nameServers: ['cy.ns.cloudflare.test', 'di.ns.cloudflare.test'],
        });
        const connection = await connect('cloudflare', { apiToken: CF_TOKEN });
        const domain = await monitor(connection.id, zone);
        expect(domain).toMatchObject({ status: 'pending', proof: null });
        // The owner moves the name servers; Cloudflare sees it and activates the zone.
        for (const ns of ['cy.ns.cloudflare.test', 'di.ns.cloudflare.test'])
          dns.add(zone, { type: 'NS', data: ns });
        cloudflare.delegations.set(zone, {
          status: 'active',
          nameServers: ['cy.ns.cloudflare.test', 'di.ns.cloudflare.test'],
        });
        const synced = new Date();
        await runZoneSync(api.db, queue, connection.id, syncSettings(), logger, synced);
        const list = (await (await call('/api/domains', { token: mallory.idToken })).json()) as {
          domains: DomainView[];
        };
        expect(list.domains.find((d) => d.id === domain.id)).toMatchObject({
          status: 'verified',
          proof: 'zone',
          error: null,
        });
        const [first] = await scansOf(domain.id);
        expect(first).toMatchObject({ trigger: 'scheduled' });
        expect(queued).toContain(first?.id);
        const [link] = await api.db
          .select()
          .from(dnsConnectionZones)
          .where(eq(dnsConnectionZones.domainId, domain.id));
        expect(link?.delegatedAt?.toISOString()).toBe(synced.toISOString());
      });

      it('a delegation that moves away lapses like a missing TXT record: the TXT record takes over, or monitoring pauses', async () => {
        const zone = `moving-${tag}.com`;
        const servers = assignedNameServers(cloudflare, zone, 'cloudflare');
        cloudflare.zones.set(zone, [{ name: `www.${zone}`, type: 'A', ttl: 300, data: '192.0.2.50' }]);
        for (const ns of servers) dns.add(zone, { type: 'NS', data: ns });
        const connection = await connect('cloudflare', { apiToken: CF_TOKEN });
        const domain = await monitor(connection.id, zone);
        expect(domain).toMatchObject({ status: 'verified', proof: 'zone' });
        await api.db.update(scans).set({ status: 'completed' }).where(eq(scans.domainId, domain.id));

        // The domain moves to another DNS host; no TXT record stands.
        dns.zone.set(zone, [{ type: 'NS', data: 'ns1.other-host.net' }]);
        const moved = new Date(Date.now() + DAY);
        await runZoneSync(api.db, queue, connection.id, syncSettings(), logger, moved);
        const [lapsed] = await api.db.select().from(domains).where(eq(domains.id, domain.id));
        expect(lapsed).toMatchObject({ status: 'verified', proof: 'zone', pausedReason: null });
        expect(lapsed?.recordMissingSince?.toISOString()).toBe(moved.toISOString());

        // Past the grace period the scheduler pauses it, and says why.
        await api.db.update(domains).set({ nextScanAt: moved }).where(eq(domains.id, domain.id));
        const late = new Date(moved.getTime() + VERIFICATION_GRACE_MS + DAY);
        await scheduleDueScans(api.db, queue, logger, { resolvers: resolvers(), now: late });
        const [paused] = await api.db.select().from(domains).where(eq(domains.id, domain.id));
        expect(paused?.pausedReason).toContain(
          `public DNS no longer delegates ${zone} to its connected DNS zone`,
        );

        // The owner adds the TXT record instead: the next sync finds the domain standing on it.
        dns.add(zone, { type: 'TXT', data: `danglewatch-verify=${domain.verificationToken}` });
        await runZoneSync(
          api.db,
          queue,
          connection.id,
          syncSettings(),
          logger,
          new Date(late.getTime() + DAY),
        );
        const [txt] = await api.db.select().from(domains).where(eq(domains.id, domain.id));
        expect(txt).toMatchObject({
          status: 'verified',
          proof: 'txt',
          recordMissingSince: null,
          pausedReason: null,
        });
      });
    },
  );
}
