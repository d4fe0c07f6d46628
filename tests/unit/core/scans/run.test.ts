import { type ChildProcess, spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSettings } from '../../../../src/core/scans/engine-settings.ts';
import { reapStaleScans, WORKER_LOST_MESSAGE } from '../../../../src/core/scans/reaper.ts';
import { CANCELLED_MESSAGE, runScan } from '../../../../src/core/scans/run.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, scans, users, workspaces } from '../../../../src/db/schema.ts';
import { STALE_HEARTBEAT_MS } from '../../../../src/model/constants.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';
import { getPlan } from '../../../../src/model/plans.ts';
import { scanDomain } from '../../../../src/scanner/scan.ts';
import type { ScanOptions } from '../../../../src/scanner/types.ts';
import { type ApiFixture, startApiServer } from '../../../fixtures/api-server.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { databaseBackends } from '../../../helpers/databases.ts';
import { until } from '../../../helpers/until.ts';

const logger = pino({ level: 'silent' });

function databaseUrl(database: Database): string {
  if (database.kind !== 'postgres') throw new Error('a second process needs PostgreSQL');
  return String(database.pool.options.connectionString);
}
const DOMAIN = 'acme-worker.com';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scan worker on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let dns: DnsFixture;
      let api: ApiFixture;
      let settings: EngineSettings;
      let domainId: string;
      const userId = `worker-${backend.name}-${Date.now()}`;

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        api = await startApiServer();
        dns.add(DOMAIN, { type: 'A', data: '127.0.0.1' });
        // Only certificate transparency knows this name; its CNAME leads to a deleted Azure app.
        dns.add(`staging.${DOMAIN}`, { type: 'CNAME', data: 'gone-app-4821.azurewebsites.net' });
        dns.add(`docs.${DOMAIN}`, { type: 'A', data: '127.0.0.1' });
        api.crtsh.set(DOMAIN, [{ name_value: `staging.${DOMAIN}` }, { name_value: `docs.${DOMAIN}` }]);
        api.registered.add('azurewebsites.net');
        settings = {
          resolvers: [`127.0.0.1:${dns.port}`],
          ctUrl: `${api.url}/crtsh`,
          certspotterUrl: `${api.url}/certspotter`,
          rdapUrl: `${api.url}/rdap`,
          allowPrivate: ['127.0.0.1'],
          wordlist: ['www', 'mail'],
          timeoutMs: 1500,
          validationDelayMs: 20,
          cloudRanges: [],
        };
        await database.db.insert(users).values({ id: userId, email: `w@${DOMAIN}`, provider: 'google' });
        const [row] = await database.db
          .insert(domains)
          .values({
            workspaceId: userId,
            domain: DOMAIN,
            verificationToken: 'b'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        domainId = row?.id ?? '';
      });
      afterAll(async () => {
        // Answers the slow tests delayed may still be on their way; let them leave first.
        dns.delayMs = 0;
        await new Promise((resolve) => setTimeout(resolve, 500));
        await dns?.close();
        await api?.close();
        await database?.close();
      });

      const newScan = async (extra: Partial<typeof scans.$inferInsert> = {}) => {
        const [row] = await database.db
          .insert(scans)
          .values({
            workspaceId: userId,
            domainId,
            domain: DOMAIN,
            config: { skipDiscovery: false, useCertificateTransparency: true, useMultiStageValidation: true },
            ...extra,
          })
          .returning();
        if (!row) throw new Error('no scan');
        return row.id;
      };
      const read = async (id: string) => (await database.db.select().from(scans).where(eq(scans.id, id)))[0];

      it('runs the engine with the scan options and stores findings, counts and progress', async () => {
        const id = await newScan();
        expect(await runScan(database.db, id, settings, logger)).toBe('completed');
        const row = await read(id);
        expect(row).toMatchObject({ status: 'completed', attempts: 1, error: null });
        expect(row?.criticalCount).toBe(row?.findings.filter((f) => f.risk === 'high').length);
        expect(row?.criticalCount).toBeGreaterThan(0);
        expect(row?.subdomains).toContain(`staging.${DOMAIN}`);
        expect(row?.subdomainsScanned).toBe(row?.subdomains.length);
        expect(row?.findings.map((f) => [f.subdomain, f.recordType, f.target])).toContainEqual([
          `staging.${DOMAIN}`,
          'CNAME',
          'gone-app-4821.azurewebsites.net',
        ]);
        expect(row?.vulnerabilitiesFound).toBe(row?.findings.length);
        // The first scan of the domain: every finding is new to its history.
        expect(row?.changes?.new).toHaveLength(row?.findings.length ?? -1);
        expect(row?.progress).toMatchObject({ stage: 'done' });
        expect(row?.durationSeconds).toBeGreaterThan(0);
        // A scheduled domain's next scan is one interval after this one.
        const [domain] = await database.db.select().from(domains).where(eq(domains.id, domainId));
        expect(domain?.nextScanAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 60 * 60_000);
      });

      it('turns CT off when the scan says so; the names of open findings are checked all the same', async () => {
        const id = await newScan({
          config: { skipDiscovery: false, useCertificateTransparency: false, useMultiStageValidation: false },
        });
        expect(await runScan(database.db, id, settings, logger)).toBe('completed');
        const checked = (await read(id))?.subdomains;
        expect(checked).not.toContain(`docs.${DOMAIN}`);
        // Only CT knew it, but it is an open finding since the first scan: still looked at.
        expect(checked).toContain(`staging.${DOMAIN}`);
      });

      it("bounds a scan by the owner's plan: names per scan from the catalogue", async () => {
        const seen: ScanOptions[] = [];
        const observe: typeof scanDomain = (domain, options = {}) => {
          seen.push(options);
          return scanDomain(domain, options);
        };
        const { maxNames: _, ...unbounded } = settings;
        expect(await runScan(database.db, await newScan(), unbounded, logger, { engine: observe })).toBe(
          'completed',
        );
        await database.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, userId));
        expect(await runScan(database.db, await newScan(), unbounded, logger, { engine: observe })).toBe(
          'completed',
        );
        await database.db.update(workspaces).set({ tier: 'free' }).where(eq(workspaces.id, userId));
        expect(seen.map((o) => o.maxNames)).toEqual([
          getPlan('free').limits.namesPerScan,
          getPlan('pro-solo').limits.namesPerScan,
        ]);
      });

      it('runs a claimed scan only once', async () => {
        const id = await newScan();
        const [a, b] = await Promise.all([
          runScan(database.db, id, settings, logger),
          runScan(database.db, id, settings, logger),
        ]);
        expect([a, b].sort()).toEqual(['completed', 'skipped']);
      });

      it('ends in failed with the error in words when the engine throws', async () => {
        const id = await newScan();
        const outcome = await runScan(
          database.db,
          id,
          { ...settings, resolvers: ['not a resolver!'] },
          logger,
        );
        expect(outcome).toBe('failed');
        expect((await read(id))?.error).toMatch(/^The scan could not finish: /);
      });

      it('cancel stops a running scan through its AbortSignal within 2 s', async () => {
        const id = await newScan();
        dns.delayMs = 400;
        try {
          const running = runScan(
            database.db,
            id,
            { ...settings, wordlist: Array.from({ length: 300 }, (_, i) => `n${i}`), concurrency: 4 },
            logger,
          );
          await until(async () => ((await read(id))?.status === 'running' ? true : undefined));
          await until(async () => ((await read(id))?.progress?.stage ? true : undefined));
          const asked = Date.now();
          await database.db.update(scans).set({ cancelRequested: true }).where(eq(scans.id, id));
          expect(await running).toBe('cancelled');
          expect(Date.now() - asked).toBeLessThan(2_000);
          expect(await read(id)).toMatchObject({ status: 'cancelled', error: CANCELLED_MESSAGE });
        } finally {
          dns.delayMs = 0;
        }
      });

      it('a user with two scans running waits: the third is deferred, not run', async () => {
        const a = await newScan({ status: 'running', heartbeatAt: new Date() });
        const b = await newScan({ status: 'running', heartbeatAt: new Date() });
        const c = await newScan();
        expect(await runScan(database.db, c, settings, logger)).toBe('deferred');
        expect((await read(c))?.status).toBe('pending');
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, a));
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, b));
      });

      it('the reaper gives a scan of a dead worker another try, then fails it with a reason', async () => {
        const old = new Date(Date.now() - STALE_HEARTBEAT_MS - 1_000);
        const once = await newScan({ status: 'running', heartbeatAt: old, attempts: 1 });
        const twice = await newScan({ status: 'running', heartbeatAt: old, attempts: 2 });
        const alive = await newScan({ status: 'running', heartbeatAt: new Date(), attempts: 1 });
        const { retried, abandoned } = await reapStaleScans(database.db);
        expect(retried).toContain(once);
        expect(retried).not.toContain(twice);
        expect(abandoned).toEqual(expect.arrayContaining([once, twice]));
        expect(abandoned).not.toContain(alive);
        expect((await read(once))?.status).toBe('pending');
        expect(await read(twice)).toMatchObject({ status: 'failed', error: WORKER_LOST_MESSAGE });
        expect((await read(alive))?.status).toBe('running');
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, alive));
        expect(await runScan(database.db, once, settings, logger)).toBe('completed');
      });

      it('the reaper names scans pending past the stale window, whose job may have been lost', async () => {
        const old = new Date(Date.now() - STALE_HEARTBEAT_MS - 1_000);
        const lost = await newScan({ createdAt: old });
        const fresh = await newScan();
        const { waiting, retried } = await reapStaleScans(database.db);
        expect(waiting).toContain(lost);
        expect(waiting).not.toContain(fresh);
        expect(retried).toEqual([]);
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, lost));
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, fresh));
      });

      // Two processes cannot share an embedded database: this one needs PostgreSQL.
      if (backend.name === 'PostgreSQL')
        it('a worker killed with SIGKILL mid-scan does not leave its scan running', async () => {
          const id = await newScan();
          dns.delayMs = 300;
          let child: ChildProcess | undefined;
          try {
            const slow = {
              ...settings,
              wordlist: Array.from({ length: 500 }, (_, i) => `k${i}`),
              concurrency: 4,
            };
            child = spawn(
              process.execPath,
              ['tests/helpers/scan-worker-child.ts', id, databaseUrl(database), JSON.stringify(slow)],
              { stdio: ['ignore', 'pipe', 'inherit'] },
            );
            await until(async () => ((await read(id))?.status === 'running' ? true : undefined), 30_000);
            child.kill('SIGKILL');
            await new Promise((r) => child?.once('exit', r));
            expect((await read(id))?.status).toBe('running');
            // Minutes later (the clock moved on by the stale limit), the reaper takes it back.
            const later = new Date(Date.now() + STALE_HEARTBEAT_MS + 5_000);
            expect((await reapStaleScans(database.db, later)).retried).toContain(id);
            expect((await read(id))?.status).toBe('pending');
          } finally {
            dns.delayMs = 0;
            child?.kill('SIGKILL');
          }
          expect(await runScan(database.db, id, settings, logger)).toBe('completed');
        }, 60_000);
    },
  );
}
