// A domain's zone uploaded as a BIND file becomes its inventory, and each upload after the first
// records what changed.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZONE_FILE_RATE } from '../../../src/core/limits.ts';
import { domains, scans } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

interface Inventory {
  source: string | null;
  readAt: string | null;
  records: { name: string; type: string; ttl: number; data: string; source: string }[];
  history: { change: string; name: string; type: string; data: string; ttl: number }[];
}

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `zone file inventory on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async (id: string) => void queued.push(id) }, queueUp: () => true },
      });
      const { tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let domainId: string;
      let pendingId: string;
      const zone = `zone-${tag}.com`;

      const upload = (id: string, text: string, token = ann.idToken, type = 'text/plain') =>
        api.app.request(`/api/domains/${id}/zone-file`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body: text,
        });
      const inventory = async (id: string, token = ann.idToken) => {
        const res = await api.app.request(`/api/domains/${id}/records`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        return (await res.json()) as Inventory;
      };

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
        bob = await api.signIn('bob', { email: `bob@bob-${tag}.com` }, { verify: true });
        const rows = await api.db
          .insert(domains)
          .values([
            {
              workspaceId: ann.uid,
              domain: zone,
              verificationToken: 'z'.repeat(24),
              scanConfig: DEFAULT_SCAN_CONFIG,
              status: 'verified',
            },
            {
              workspaceId: ann.uid,
              domain: `pending-${zone}`,
              verificationToken: 'p'.repeat(24),
              scanConfig: DEFAULT_SCAN_CONFIG,
            },
          ])
          .returning();
        domainId = rows[0]?.id as string;
        pendingId = rows[1]?.id as string;
      });

      const first = `$ORIGIN ${zone}.
$TTL 3600
@        IN SOA ns1 hostmaster ( 1 7200 900 1209600 300 )
@        IN NS  ns1.provider.example.
campaign-2019 IN CNAME gone-campaign.herokuapp.com.
www      300 IN A 93.184.216.34
old      IN CNAME legacy.example.net.
other.example.org. IN A 192.0.2.1 ; outside the zone: skipped
`;

      it('refuses callers and files it should not take', async () => {
        await expectError(
          await api.app.request(`/api/domains/${domainId}/zone-file`, { method: 'PUT', body: first }),
          401,
          'Authentication required',
        );
        expect((await upload(domainId, first, bob.idToken)).status).toBe(404);
        expect(
          (
            await api.app.request(`/api/domains/${domainId}/records`, {
              headers: { authorization: `Bearer ${bob.idToken}` },
            })
          ).status,
        ).toBe(404);
        await expectError(
          await upload(domainId, first, ann.idToken, 'application/json'),
          415,
          'Send the zone file as text/plain',
        );
        expect((await upload(pendingId, first)).status).toBe(409);
        const bad = await upload(
          domainId,
          `$ORIGIN ${zone}.\n$TTL 300\nwww IN A 93.184.216.34\n$INCLUDE /etc/passwd\n`,
        );
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { error: string }).error).toMatch(/^Zone file line 4: \$INCLUDE/);
        const huge = 'x'.repeat(5 * 1024 * 1024 + 1);
        expect((await upload(domainId, huge)).status).toBe(413);
        // Nothing was stored by any of them.
        expect((await inventory(domainId)).records).toEqual([]);
      });

      it('keeps the first upload as the inventory, without calling it a change', async () => {
        const res = await upload(domainId, first);
        expect(res.status).toBe(200);
        // Counted per account: a parse of up to 5 MB each.
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(ZONE_FILE_RATE.limit));
        // Its names are scanned at once: the whole inventory, as a first upload.
        const { records, scanId } = (await res.json()) as { records: number; scanId: string };
        expect(records).toBe(5);
        expect(queued).toEqual([scanId]);
        await api.db.update(scans).set({ status: 'completed' }).where(eq(scans.id, scanId));
        const view = await inventory(domainId);
        expect(view.source).toBe('zone-file');
        expect(view.readAt).not.toBeNull();
        expect(view.records.map((r) => `${r.name} ${r.type} ${r.data}`).sort()).toEqual([
          `campaign-2019.${zone} CNAME gone-campaign.herokuapp.com`,
          `old.${zone} CNAME legacy.example.net`,
          `www.${zone} A 93.184.216.34`,
          `${zone} NS ns1.provider.example`,
          `${zone} SOA ns1.${zone} hostmaster.${zone} 1 7200 900 1209600 300`,
        ]);
        expect(view.records.every((r) => r.source === 'zone-file')).toBe(true);
        expect(view.history).toEqual([]);
      });

      it('records what a later upload added, changed and removed', async () => {
        const second = first
          .replace('www      300 IN A', 'www      60 IN A')
          .replace(/^old .*$/m, `new-app IN CNAME new-app.azurewebsites.net.`);
        expect(await (await upload(domainId, second)).json()).toMatchObject({
          records: 5,
          scanId: queued[1],
        });
        const view = await inventory(domainId);
        expect(view.history.map((h) => `${h.change} ${h.name} ${h.type} ${h.ttl}`).sort()).toEqual([
          `added new-app.${zone} CNAME 3600`,
          `changed www.${zone} A 60`,
          `removed old.${zone} CNAME 3600`,
        ]);
        expect(view.records.map((r) => r.name)).toContain(`new-app.${zone}`);
        expect(view.records.map((r) => r.name)).not.toContain(`old.${zone}`);
      });
    },
  );
}
