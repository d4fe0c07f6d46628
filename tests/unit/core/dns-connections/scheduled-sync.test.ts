// A connected zone read again: a record added at the provider is scanned at once, and found, though
// neither CT nor the wordlist knows its name; a provider that keeps failing is said, then e-mailed.

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_FAILURE_MAIL_MS } from '../../../../src/core/connections/failure-mail.ts';
import { createConnection, monitorZone } from '../../../../src/core/dns-connections/connections.ts';
import {
  dueConnections,
  runZoneSync,
  type ZoneSyncSettings,
} from '../../../../src/core/dns-connections/scheduled-sync.ts';
import type { EngineSettings } from '../../../../src/core/engine-settings.ts';
import type { MailMessage } from '../../../../src/core/mail/mailer.ts';
import { runScan } from '../../../../src/core/scans/run.ts';
import type { Database } from '../../../../src/db/client.ts';
import { dnsConnections, scans, users, workspaces } from '../../../../src/db/schema.ts';
import { type ApiFixture, startApiServer } from '../../../fixtures/api-server.ts';
import { startCloudflareFake } from '../../../fixtures/dns-providers/cloudflare.ts';
import { assignedNameServers, type FakeProvider } from '../../../fixtures/dns-providers/fake-server.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { loopbackEngine } from '../../../fixtures/scan-run-world.ts';
import { personalContext } from '../../../helpers/context.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const TOKEN = 'cf-sync-token-0001';
const MINUTE = 60_000;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `connected zone syncs on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let cloudflare: FakeProvider;
      let dns: DnsFixture;
      let api: ApiFixture;
      let settings: ZoneSyncSettings;
      let engine: EngineSettings;
      let connectionId: string;
      let domainId: string;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      const mail: MailMessage[] = [];
      const alerts = {
        mailer: { send: async (m: MailMessage) => void mail.push(m) },
        publicUrl: 'https://dw.test',
      };
      const tag = `${backend.name}-${Date.now()}`.toLowerCase();
      const zone = `sync-${tag}.com`;
      const userId = `sync-${tag}`;
      const start = new Date('2026-11-25T10:00:00Z');

      beforeAll(async () => {
        database = await backend.open();
        cloudflare = await startCloudflareFake({ token: TOKEN });
        dns = await startDnsServer();
        api = await startApiServer();
        cloudflare.zones.set(zone, [
          { name: zone, type: 'A', ttl: 300, data: '93.184.216.34' },
          { name: `www.${zone}`, type: 'A', ttl: 300, data: '93.184.216.34' },
        ]);
        dns.add(zone, { type: 'A', data: '127.0.0.1' });
        for (const ns of assignedNameServers(cloudflare, zone, 'cloudflare'))
          dns.add(zone, { type: 'NS', data: ns });
        api.registered.add('azurewebsites.net');
        settings = {
          secrets: { key: randomBytes(32) },
          syncMinutes: 15,
          providerOptions: { env: { CLOUDFLARE_API_URL: cloudflare.url }, maxRetries: 0 },
          resolvers: [`127.0.0.1:${dns.port}`],
        };
        engine = loopbackEngine(dns, api);
        await database.db.insert(users).values({ id: userId, email: `owner@${zone}`, provider: 'google' });
        await database.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, userId));
        const ctx = personalContext(userId, { tier: 'solo', email: `owner@${zone}` });
        const made = await createConnection(
          database.db,
          settings.secrets,
          ctx,
          { provider: 'cloudflare', credentials: { apiToken: TOKEN } },
          settings.providerOptions ?? {},
        );
        connectionId = made.id;
        const domain = await monitorZone(
          database.db,
          settings.secrets,
          { queue, providerOptions: settings.providerOptions ?? {}, resolvers: settings.resolvers },
          ctx,
          { connectionId, zone, now: start },
        );
        domainId = domain.id;
        // Public DNS delegates the zone to Cloudflare: the zone proves the domain, its first scan is queued.
        expect(domain).toMatchObject({ status: 'verified', proof: 'zone' });
        expect(queued).toHaveLength(1);
      });
      afterAll(async () => {
        await cloudflare?.close();
        await dns?.close();
        await api?.close();
        await database?.close();
      });

      it('is due once the sync interval has passed since the last read', async () => {
        expect(await dueConnections(database.db, new Date(start.getTime() + 5 * MINUTE), 15)).not.toContain(
          connectionId,
        );
        expect(await dueConnections(database.db, new Date(start.getTime() + 16 * MINUTE), 15)).toContain(
          connectionId,
        );
      });

      it('scans a record added at the provider right after the sync that sees it, and finds its takeover', async () => {
        // A forgotten campaign name: no certificate, no wordlist label. Its target is a deleted Azure app.
        cloudflare.addRecord(zone, {
          name: `spring-promo-2019.${zone}`,
          type: 'CNAME',
          ttl: 300,
          data: 'gone-promo-4821.azurewebsites.net',
        });
        // The first scan, which every record of the zone had, is done by now.
        await database.db.update(scans).set({ status: 'completed' }).where(eq(scans.trigger, 'scheduled'));
        const at = new Date(start.getTime() + 16 * MINUTE);
        expect(await runZoneSync(database.db, queue, connectionId, settings, logger, at, alerts)).toBe(1);
        const [scan] = await database.db.select().from(scans).where(eq(scans.trigger, 'zone-change'));
        expect(scan?.config?.names).toEqual([`spring-promo-2019.${zone}`]);
        expect(queued).toContain(scan?.id);

        expect(await runScan(database.db, scan?.id as string, engine, logger)).toBe('completed');
        const [done] = await database.db
          .select()
          .from(scans)
          .where(eq(scans.id, scan?.id as string));
        const finding = done?.findings.find((f) => f.subdomain === `spring-promo-2019.${zone}`);
        expect(finding).toMatchObject({ recordType: 'CNAME', target: 'gone-promo-4821.azurewebsites.net' });
        expect((finding as { sources?: string[] } | undefined)?.sources).toEqual(['zone']);
        // Just the changed name, no discovery: www was not looked at again.
        expect(done?.subdomains).not.toContain(`www.${zone}`);
        // A sync that finds nothing new starts nothing.
        expect(
          await runZoneSync(
            database.db,
            queue,
            connectionId,
            settings,
            logger,
            new Date(at.getTime() + 16 * MINUTE),
          ),
        ).toBe(0);
        expect(domainId).toBeTruthy();
      });

      it('keeps the last good inventory when the provider fails, says since when, and e-mails once after three days', async () => {
        const failing = () => {
          cloudflare.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
        };
        const first = new Date(start.getTime() + 60 * MINUTE);
        failing();
        expect(await runZoneSync(database.db, queue, connectionId, settings, logger, first, alerts)).toBe(0);
        const [row] = await database.db
          .select()
          .from(dnsConnections)
          .where(eq(dnsConnections.id, connectionId));
        expect(row?.syncError).toBeTruthy();
        expect(row?.syncFailingSince?.toISOString()).toBe(first.toISOString());
        expect(mail).toEqual([]);

        cloudflare.faults.length = 0;
        failing();
        const later = new Date(first.getTime() + SYNC_FAILURE_MAIL_MS + MINUTE);
        await runZoneSync(database.db, queue, connectionId, settings, logger, later, alerts);
        expect(mail).toHaveLength(1);
        expect(mail[0]?.to).toBe(`owner@${zone}`);
        expect(mail[0]?.text).toContain('since 2026-11-25 11:00 UTC');
        expect(mail[0]?.text).toContain(`/dashboard/settings?tab=dns&workspace=${userId}`);
        cloudflare.faults.length = 0;
        failing();
        await runZoneSync(
          database.db,
          queue,
          connectionId,
          settings,
          logger,
          new Date(later.getTime() + MINUTE),
          alerts,
        );
        expect(mail).toHaveLength(1);

        // Back: the error is gone, and a later failing spell may be told again.
        cloudflare.faults.length = 0;
        await runZoneSync(
          database.db,
          queue,
          connectionId,
          settings,
          logger,
          new Date(later.getTime() + 2 * MINUTE),
          alerts,
        );
        const [healed] = await database.db
          .select()
          .from(dnsConnections)
          .where(eq(dnsConnections.id, connectionId));
        expect(healed).toMatchObject({ syncError: null, syncFailingSince: null, failureMailedAt: null });
      });
    },
  );
}
