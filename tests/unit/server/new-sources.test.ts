// Every new source of names scans them: a zone linked to a domain already verified by its TXT
// record, a first zone-file upload and a later one with new names each start a scan of what they
// brought, outside the day's quota, through the HTTP API as the dashboard calls it. Each source is
// a set of its own: an upload does not replace a provider's records, nor a sync a file's.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src/core/dns-connections/connections.ts';
import { syncConnection } from '../../../src/core/dns-connections/sync.ts';
import { dnsConnections, dnsConnectionZones, domains, scans } from '../../../src/db/schema.ts';
import type { DomainView } from '../../../src/model/contract.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import { insertTxtVerifiedDomain } from '../../helpers/domains.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const CF_TOKEN = 'cf-new-sources-0001';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `new sources of names are scanned on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let cloudflare: FakeProvider;
      let dns: DnsFixture;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      beforeAll(async () => {
        cloudflare = await startCloudflareFake({ token: CF_TOKEN });
        dns = await startDnsServer();
      });
      afterAll(async () => {
        await Promise.all([cloudflare?.close(), dns?.close()]);
      });
      const secrets = { key: randomBytes(32) };
      const api = apiSuite(backend, () => ({
        scanning: { queue, queueUp: () => true, resolvers: [`127.0.0.1:${dns.port}`] },
        dnsConnections: {
          secrets,
          providerOptions: { env: { CLOUDFLARE_API_URL: cloudflare.url }, maxRetries: 0 },
        },
      }));
      const { call, tag } = api;
      let ann: MintedUser;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@sources-${tag}.com` }, { verify: true });
      });

      /** A domain of Ann's that her TXT record proved, and whose first scan is long done. */
      const txtVerified = (name: string) => insertTxtVerifiedDomain(api.db, ann.uid, name);
      const scansOf = (domainId: string) => api.db.select().from(scans).where(eq(scans.domainId, domainId));
      const upload = (id: string, text: string) =>
        api.app.request(`/api/domains/${id}/zone-file`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${ann.idToken}`, 'content-type': 'text/plain' },
          body: text,
        });

      it('linking a zone to a domain its TXT record proved scans every record of the zone', async () => {
        const name = `sources-${tag}.com`;
        const domainId = await txtVerified(name);
        // Not delegated to Cloudflare: the domain stands on its TXT record, and the zone's records are new.
        cloudflare.zones.set(name, [
          { name: `legacy.${name}`, type: 'CNAME', ttl: 300, data: 'legacy-shop.myshopify.com' },
        ]);
        const made = await call('/api/dns-connections', {
          method: 'POST',
          token: ann.idToken,
          body: { provider: 'cloudflare', credentials: { apiToken: CF_TOKEN } },
        });
        const { connection } = (await made.json()) as { connection: ConnectionView };
        const res = await call(`/api/dns-connections/${connection.id}/zones`, {
          method: 'POST',
          token: ann.idToken,
          body: { zone: name },
        });
        expect(res.status).toBe(201);
        const { domain } = (await res.json()) as { domain: DomainView };
        expect(domain).toMatchObject({ status: 'verified', proof: 'txt', scanStatus: 'pending' });
        const [scan] = await scansOf(domainId);
        // A full scan: it reads every record of the inventory the zone brought.
        expect(scan).toMatchObject({ trigger: 'scheduled' });
        expect(scan?.config?.names).toBeUndefined();
        expect(queued).toContain(scan?.id);
        // Not a scan Ann asked for: the day's quota is untouched.
        const { quota } = (await (await call('/api/domains', { token: ann.idToken })).json()) as {
          quota: { scansUsedToday: number };
        };
        expect(quota.scansUsedToday).toBe(0);
      });

      it("an upload to a connected domain keeps the provider's records and history, and a sync keeps the file's", async () => {
        const name = `sources-${tag}.com`;
        const [row] = await api.db.select().from(domains).where(eq(domains.domain, name));
        const domainId = row?.id ?? '';
        await api.db.update(scans).set({ status: 'completed' }).where(eq(scans.domainId, domainId));
        const res = await upload(
          domainId,
          `$ORIGIN ${name}.\n$TTL 300\nlegacy IN CNAME legacy-shop.myshopify.com.\nfile-only IN CNAME promo.azurewebsites.net.\n`,
        );
        expect(res.status).toBe(200);
        const records = async () =>
          (await (await call(`/api/domains/${domainId}/records`, { token: ann.idToken })).json()) as {
            records: { name: string; sources: string[] }[];
            history: { change: string; name: string; source: string }[];
            total: number;
          };
        const merged = await records();
        expect(merged.total).toBe(2);
        expect(merged.records.map((r) => [r.name, r.sources])).toEqual([
          [`file-only.${name}`, ['zone-file']],
          [`legacy.${name}`, ['cloudflare', 'zone-file']],
        ]);
        // Only the record the file brought is new to the domain; no Cloudflare record was removed.
        expect(merged.history.map((h) => `${h.change} ${h.name} ${h.source}`)).toEqual([
          `added file-only.${name} zone-file`,
        ]);
        // The file's new name is scanned, as a change.
        const [scan] = (await scansOf(domainId)).filter((s) => s.trigger === 'zone-change');
        expect(scan?.config?.names).toEqual([`file-only.${name}`]);

        // The next Cloudflare sync keeps the file's record, and changes nothing in the history.
        await api.db.update(scans).set({ status: 'completed' }).where(eq(scans.domainId, domainId));
        const [link] = await api.db
          .select()
          .from(dnsConnectionZones)
          .where(eq(dnsConnectionZones.domainId, domainId));
        const [connection] = await api.db
          .select()
          .from(dnsConnections)
          .where(eq(dnsConnections.id, link?.connectionId as string));
        await syncConnection(
          api.db,
          secrets.key,
          connection as never,
          {
            providerOptions: { env: { CLOUDFLARE_API_URL: cloudflare.url }, maxRetries: 0 },
            resolvers: [`127.0.0.1:${dns.port}`],
            queue,
          },
          new Date(),
        );
        const after = await records();
        expect(after.total).toBe(2);
        expect(after.history).toHaveLength(1);
        // The domain's card counts the records once.
        const { domains: list } = (await (await call('/api/domains', { token: ann.idToken })).json()) as {
          domains: DomainView[];
        };
        expect(list.find((d) => d.id === domainId)?.inventory?.records).toBe(2);
      });

      it('a first zone file scans the whole zone; a later one scans the names it added', async () => {
        const name = `upload-${tag}.com`;
        const domainId = await txtVerified(name);
        const zoneFile = (lines: string[]) =>
          `$ORIGIN ${name}.\n$TTL 300\n@ IN A 192.0.2.1\n${lines.join('\n')}\n`;
        const first = await upload(domainId, zoneFile(['www IN CNAME @']));
        expect(first.status).toBe(200);
        const firstAnswer = (await first.json()) as { records: number; scanId: string | null };
        expect(firstAnswer.records).toBe(2);
        const [full] = await scansOf(domainId);
        expect(firstAnswer.scanId).toBe(full?.id);
        expect(full).toMatchObject({ trigger: 'scheduled' });
        await api.db
          .update(scans)
          .set({ status: 'completed' })
          .where(eq(scans.id, full?.id as string));

        const second = await upload(
          domainId,
          zoneFile(['www IN CNAME @', 'promo IN CNAME promo-2019.azurewebsites.net']),
        );
        const { scanId } = (await second.json()) as { scanId: string | null };
        const [changed] = (await scansOf(domainId)).filter((s) => s.id === scanId);
        expect(changed).toMatchObject({ trigger: 'zone-change' });
        expect(changed?.config?.names).toEqual([`promo.${name}`]);

        // The same file again brings nothing new: no scan.
        await api.db
          .update(scans)
          .set({ status: 'completed' })
          .where(eq(scans.id, scanId as string));
        const again = await upload(
          domainId,
          zoneFile(['www IN CNAME @', 'promo IN CNAME promo-2019.azurewebsites.net']),
        );
        expect(((await again.json()) as { scanId: string | null }).scanId).toBeNull();
        expect(await scansOf(domainId)).toHaveLength(2);
      });
    },
  );
}
