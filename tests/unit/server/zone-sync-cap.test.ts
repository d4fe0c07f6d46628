// A provider's zone above INVENTORY_RECORD_LIMIT records is refused whole at the sync: the
// connection says why, naming the cap, and the domain keeps its last good inventory.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src/core/dns-connections/connections.ts';
import { runZoneSync } from '../../../src/core/dns-connections/scheduled-sync.ts';
import { INVENTORY_RECORD_LIMIT } from '../../../src/core/limits.ts';
import type { ZoneRecord } from '../../../src/scanner/zone/record.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import { oneAtATime } from '../../helpers/one-at-a-time.ts';

const CF_TOKEN = 'cf-read-only-token-cap1';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `a synced zone above the inventory cap on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let cloudflare: FakeProvider;
      const key = randomBytes(32);
      const queue = { enqueue: async () => {} };
      // Retries as in production: on PGlite the pages are stored slowly enough for the fake's idle
      // sockets to close between two page requests.
      const providerOptions = () => ({
        env: { CLOUDFLARE_API_URL: cloudflare.url },
        maxRetries: 2,
        retryBaseMs: 10,
      });
      beforeAll(async () => {
        cloudflare = await startCloudflareFake({ token: CF_TOKEN, pageSize: 5000 });
      });
      afterAll(async () => {
        await cloudflare?.close();
      });
      const api = apiSuite(backend, () => ({
        scanning: { queue, queueUp: () => true },
        dnsConnections: { secrets: { key }, providerOptions: providerOptions() },
      }));
      const zone = `cap-${api.tag}.com`;

      it(
        'records a sync error naming the cap and keeps the last good inventory',
        () =>
          oneAtATime(async () => {
            const small: ZoneRecord[] = [
              { name: zone, type: 'NS', ttl: 3600, data: 'ns1.cloudflare.com' },
              { name: `www.${zone}`, type: 'A', ttl: 300, data: '93.184.216.34' },
            ];
            cloudflare.zones.set(zone, small);
            const ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
            const created = await api.call('/api/dns-connections', {
              method: 'POST',
              token: ann.idToken,
              body: { provider: 'cloudflare', credentials: { apiToken: CF_TOKEN } },
            });
            expect(created.status).toBe(201);
            const { connection } = (await created.json()) as { connection: ConnectionView };
            const monitored = await api.call(`/api/dns-connections/${connection.id}/zones`, {
              method: 'POST',
              token: ann.idToken,
              body: { zone },
            });
            expect(monitored.status).toBe(201);
            const { domain } = (await monitored.json()) as { domain: { id: string } };
            const records = async () =>
              (await (
                await api.call(`/api/domains/${domain.id}/records`, { token: ann.idToken })
              ).json()) as {
                records: ZoneRecord[];
                total: number;
              };
            expect((await records()).total).toBe(small.length);

            cloudflare.zones.set(
              zone,
              Array.from({ length: INVENTORY_RECORD_LIMIT + 1 }, (_, n) => ({
                name: `h${n}.${zone}`,
                type: 'A',
                ttl: 300,
                data: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              })),
            );
            await runZoneSync(
              api.db,
              queue,
              connection.id,
              { secrets: { key }, syncMinutes: 15, providerOptions: providerOptions() },
              pino({ level: 'silent' }),
            );
            const listed = (await (
              await api.call('/api/dns-connections', { token: ann.idToken })
            ).json()) as {
              connections: ConnectionView[];
            };
            expect(listed.connections[0]?.syncError).toBe(
              `The zone holds more than ${INVENTORY_RECORD_LIMIT.toLocaleString('en-US')} records, the most DangleWatch keeps for one domain: the last good inventory is kept`,
            );
            const kept = await records();
            expect(kept.total).toBe(small.length);
            expect(kept.records.map((r) => r.name).sort()).toEqual(small.map((r) => r.name).sort());
          }),
        300_000,
      );
    },
  );
}
