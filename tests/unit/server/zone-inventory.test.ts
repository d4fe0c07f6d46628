// A domain's zone uploaded as a BIND file becomes its inventory, and each upload after the first
// records what changed. The inventory is read a page at a time, and a domain keeps at most
// INVENTORY_RECORD_LIMIT records.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_RECORD_LIMIT, ZONE_FILE_RATE } from '../../../src/core/limits.ts';
import { queryRows } from '../../../src/db/client.ts';
import { domains, scans } from '../../../src/db/schema.ts';
import { INVENTORY_MAX_PAGE_SIZE, INVENTORY_PAGE_SIZE } from '../../../src/model/constants.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { oneAtATime } from '../../helpers/one-at-a-time.ts';

interface Inventory {
  source: string | null;
  readAt: string | null;
  records: { name: string; type: string; ttl: number; data: string; source: string }[];
  nextCursor: string | null;
  total: number;
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
      const inventory = async (id: string, token = ann.idToken, query = '') => {
        const res = await api.app.request(`/api/domains/${id}/records${query}`, {
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

      describe('a big inventory', () => {
        const big = `big-${zone}`;
        const size = 1234;
        let bigId: string;
        /** Every record of the inventory `query` keeps, page after page, and the totals each page gave. */
        const walk = async (query: string) => {
          const seen: string[] = [];
          const totals = new Set<number>();
          let cursor: string | null = null;
          let pages = 0;
          do {
            const page: Inventory = await inventory(
              bigId,
              ann.idToken,
              `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            );
            seen.push(...page.records.map((r) => `${r.name} ${r.type} ${r.data}`));
            totals.add(page.total);
            cursor = page.nextCursor;
            pages++;
          } while (cursor);
          return { seen, totals: [...totals], pages };
        };

        beforeAll(async () => {
          const [row] = await api.db
            .insert(domains)
            .values({
              workspaceId: ann.uid,
              domain: big,
              verificationToken: 'b'.repeat(24),
              scanConfig: DEFAULT_SCAN_CONFIG,
              status: 'verified',
              inventorySource: 'zone-file',
              inventoryReadAt: new Date(),
              inventoryRecords: size,
            })
            .returning();
          bigId = row?.id as string;
          // An A and a TXT record at each of 617 names: host-1 … host-617.
          await api.db.execute(sql`
            insert into zone_records (domain_id, name, type, ttl, data, source, first_seen_at, last_seen_at)
            select ${bigId}, 'host-' || n || '.' || ${big}, t.type, 300, t.data || n, 'zone-file', now(), now()
            from generate_series(1, ${size / 2}) n, (values ('A', '192.0.2.'), ('TXT', 'v=spf1 -all ')) t(type, data)`);
        });

        it('answers a page at a time and walks every record exactly once', async () => {
          const first = await inventory(bigId);
          expect(first.records).toHaveLength(INVENTORY_PAGE_SIZE);
          expect(first.total).toBe(size);
          expect(first.source).toBe('zone-file');
          expect(first.history).toEqual([]);
          expect(typeof first.nextCursor).toBe('string');

          const all = await walk(`limit=${INVENTORY_MAX_PAGE_SIZE}`);
          expect(all.pages).toBe(Math.ceil(size / INVENTORY_MAX_PAGE_SIZE));
          expect(all.totals).toEqual([size]);
          expect(all.seen).toHaveLength(size);
          expect(new Set(all.seen).size).toBe(size);
          // In (name, type, data) order, as the database sorts: the walk continues where a page ended.
          const byDb = await queryRows<{ r: string }>(
            api.db,
            sql`select name || ' ' || type || ' ' || data as r from zone_records where domain_id = ${bigId} order by name, type, data`,
          );
          expect(all.seen).toEqual(byDb.map((row) => row.r));
        });

        it('filters by part of the name, any case, and by record type; total counts what the filter keeps', async () => {
          // host-7 and host-70 … host-79, asked for in capitals.
          const starting7 = Array.from({ length: size / 2 }, (_, i) => String(i + 1)).filter((n) =>
            n.startsWith('7'),
          ).length;
          const named = await walk('q=ST-7&limit=7');
          expect(named.totals).toEqual([starting7 * 2]);
          expect(named.seen).toHaveLength(starting7 * 2);
          expect(named.seen.every((r) => /^host-7\d*\./.test(r))).toBe(true);

          const txt = await walk('type=txt&limit=500');
          expect(txt.totals).toEqual([size / 2]);
          expect(txt.seen.every((r) => r.includes(' TXT '))).toBe(true);

          const both = await inventory(bigId, ann.idToken, `?q=${encodeURIComponent('host-617.')}&type=A`);
          expect(both.total).toBe(1);
          expect(both.records.map((r) => r.data)).toEqual(['192.0.2.617']);
          expect(both.nextCursor).toBeNull();
          // LIKE's wildcards are only characters here.
          expect((await inventory(bigId, ann.idToken, `?q=${encodeURIComponent('host_%')}`)).total).toBe(0);
        });

        it('refuses what it should not answer', async () => {
          await expectError(
            await api.app.request(`/api/domains/${bigId}/records`),
            401,
            'Authentication required',
          );
          // Another account's domain is not found, whatever the page asked for.
          await expectError(
            await api.app.request(`/api/domains/${bigId}/records?limit=10`, {
              headers: { authorization: `Bearer ${bob.idToken}` },
            }),
            404,
            'Domain not found',
          );
          for (const query of [
            'limit=0',
            `limit=${INVENTORY_MAX_PAGE_SIZE + 1}`,
            'limit=ten',
            'cursor=not-a-cursor',
            `cursor=${Buffer.from('["a","b"]').toString('base64url')}`,
            'type=A%20OR%201',
            `q=${'a'.repeat(254)}`,
            'offset=100',
          ]) {
            const res = await api.app.request(`/api/domains/${bigId}/records?${query}`, {
              headers: { authorization: `Bearer ${ann.idToken}` },
            });
            expect(res.status, query).toBe(400);
            expect(((await res.json()) as { code: string }).code, query).toBe('VALIDATION_ERROR');
          }
        });
      });

      it(
        `refuses a zone file above ${INVENTORY_RECORD_LIMIT.toLocaleString('en-US')} records with 413 and keeps the last inventory`,
        () =>
          oneAtATime(async () => {
            const before = await inventory(domainId);
            const lines = [`$ORIGIN ${zone}.`, '$TTL 300'];
            for (let n = 0; n <= INVENTORY_RECORD_LIMIT; n++)
              lines.push(`h${n} A 10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
            const file = `${lines.join('\n')}\n`;
            expect(file.length).toBeLessThan(5 * 1024 * 1024);
            await expectError(
              await upload(domainId, file),
              413,
              `The zone file holds more than ${INVENTORY_RECORD_LIMIT.toLocaleString('en-US')} records, the most DangleWatch keeps for one domain`,
              'INVENTORY_TOO_LARGE',
            );
            const after = await inventory(domainId);
            expect(after.total).toBe(before.total);
            expect(after.records).toEqual(before.records);
          }),
        300_000,
      );
    },
  );
}
