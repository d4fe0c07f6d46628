import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestScan } from '../../../src/core/domains/scan-requests.ts';
import type { EngineSettings } from '../../../src/core/engine-settings.ts';
import type { Database } from '../../../src/db/client.ts';
import { domains, scans, users } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { startWorker } from '../../../src/worker/queue.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { until } from '../../helpers/until.ts';

const logger = pino({ level: 'silent' });

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `a restart of the worker on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let dns: DnsFixture;

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        dns.add('restart-me.com', { type: 'A', data: '127.0.0.1' });
      });
      afterAll(async () => {
        dns.delayMs = 0;
        await new Promise((resolve) => setTimeout(resolve, 500));
        await dns?.close();
        await database?.close();
      });

      it('loses no scan: a scan running at shutdown is pending again, and the next worker runs it', async () => {
        const settings: EngineSettings = {
          resolvers: [`127.0.0.1:${dns.port}`],
          allowPrivate: ['127.0.0.1'],
          wordlist: Array.from({ length: 400 }, (_, i) => `r${i}`),
          concurrency: 4,
          timeoutMs: 1500,
          validationDelayMs: 20,
          cloudRanges: [],
        };
        await database.db
          .insert(users)
          .values({ id: 'u-restart', email: 'r@restart-me.com', provider: 'google' });
        const [domain] = await database.db
          .insert(domains)
          .values({
            workspaceId: 'u-restart',
            domain: 'restart-me.com',
            verificationToken: 'h'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        if (!domain) throw new Error('no domain');
        const read = async (id: string) =>
          (await database.db.select().from(scans).where(eq(scans.id, id)))[0];

        dns.delayMs = 200;
        const first = await startWorker(database, logger, settings);
        const scan = await requestScan(database.db, first.queue, {
          workspace: { id: 'u-restart', tier: 'free' },
          domain,
          trigger: 'manual',
          config: { skipDiscovery: false, useCertificateTransparency: false, useMultiStageValidation: false },
          now: new Date(),
        });
        await until(async () => ((await read(scan.id))?.status === 'running' ? true : undefined), 30_000);
        await first.stop();
        expect(await read(scan.id)).toMatchObject({ status: 'pending', attempts: 0, progress: null });

        dns.delayMs = 0;
        const second = await startWorker(database, logger, settings);
        try {
          const done = await until(async () => {
            const row = await read(scan.id);
            return row?.status === 'completed' ? row : undefined;
          }, 30_000);
          expect(done.attempts).toBe(1);
          expect(done.subdomains).toContain('restart-me.com');
        } finally {
          await second.stop();
        }
      }, 90_000);
    },
  );
}
