import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextScanAfter } from '../../../../src/core/domains/schedule.ts';
import type { EngineSettings } from '../../../../src/core/engine-settings.ts';
import { CANCELLED_MESSAGE, runScan } from '../../../../src/core/scans/run.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, findings, scans, workspaces } from '../../../../src/db/schema.ts';
import { getPlan } from '../../../../src/model/plans.ts';
import { CATALOGUE_SOURCES, catalogue } from '../../../../src/scanner/fingerprints/catalogue.ts';
import { scanDomain } from '../../../../src/scanner/scan.ts';
import type { ScanOptions } from '../../../../src/scanner/types.ts';
import { loadConfig } from '../../../../src/start/config.ts';
import { engineSettings } from '../../../../src/start/engine-settings.ts';
import type { DnsFixture } from '../../../fixtures/dns-server.ts';
import { openScanRunWorld, RUN_DOMAIN, type ScanRunWorld } from '../../../fixtures/scan-run-world.ts';
import { databaseBackends } from '../../../helpers/databases.ts';
import { until } from '../../../helpers/until.ts';

const logger = pino({ level: 'silent' });

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scan worker on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let world: ScanRunWorld;
      let database: Database;
      let dns: DnsFixture;
      let settings: EngineSettings;
      let domainId: string;
      const userId = `worker-${backend.name}-${Date.now()}`;

      beforeAll(async () => {
        world = await openScanRunWorld(backend, userId);
        ({ database, dns, settings, domainId } = world);
      });
      afterAll(() => world?.close());

      const newScan = (extra: Partial<typeof scans.$inferInsert> = {}) => world.newScan(extra);
      const read = (id: string) => world.read(id);

      it('runs the engine with the scan options and stores findings, counts and progress', async () => {
        const id = await newScan();
        expect(await runScan(database.db, id, settings, logger)).toBe('completed');
        const row = await read(id);
        expect(row).toMatchObject({ status: 'completed', attempts: 1, error: null });
        expect(row?.criticalCount).toBe(row?.findings.filter((f) => f.risk === 'high').length);
        expect(row?.criticalCount).toBeGreaterThan(0);
        expect(row?.subdomains).toContain(`staging.${RUN_DOMAIN}`);
        expect(row?.subdomainsScanned).toBe(row?.subdomains.length);
        expect(row?.findings.map((f) => [f.subdomain, f.recordType, f.target])).toContainEqual([
          `staging.${RUN_DOMAIN}`,
          'CNAME',
          'gone-app-4821.azurewebsites.net',
        ]);
        expect(row?.vulnerabilitiesFound).toBe(row?.findings.length);
        // The first scan of the domain: every finding is new to its history.
        expect(row?.changes?.new).toHaveLength(row?.findings.length ?? -1);
        expect(row?.progress).toMatchObject({ stage: 'done' });
        expect(row?.durationSeconds).toBeGreaterThan(0);
        // A scheduled domain's next scan is at its minute of the day, about one interval after this one.
        const [domain] = await database.db.select().from(domains).where(eq(domains.id, domainId));
        expect(domain?.nextScanAt?.toISOString()).toBe(
          domain && nextScanAfter(domain, row?.completedAt as Date)?.toISOString(),
        );
      });

      it('judges each scan by the fingerprints file as it is then and records its sources: no restart needed', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'dw-run-fingerprints-'));
        try {
          // The worker's settings as src/start/worker.ts makes them, pointed at the loopback world.
          const live = engineSettings(loadConfig({ DATA_DIR: dir }));
          const watching: EngineSettings = {
            ...settings,
            get fingerprints() {
              return live.fingerprints;
            },
          };
          const staging = (id: string) =>
            read(id).then((row) => row?.findings.find((f) => f.subdomain === `staging.${RUN_DOMAIN}`));
          const before = await newScan();
          expect(await runScan(database.db, before, watching, logger)).toBe('completed');
          expect((await read(before))?.fingerprints).toEqual(CATALOGUE_SOURCES);
          expect((await staging(before))?.status).not.toBe('review');

          // An update lands while the worker runs: a newer source retires the service.
          const newer = {
            name: 'can-i-take-over-xyz',
            url: 'file:///upstream/fingerprints.json',
            date: '2026-11-28',
          };
          const sources = [...CATALOGUE_SOURCES.filter((s) => s.name !== newer.name), newer];
          const entries = catalogue.map((e) =>
            e.id === 'azure-app-service' ? { ...e, status: 'retired' } : e,
          );
          writeFileSync(join(dir, 'fingerprints.json'), JSON.stringify({ version: 1, sources, entries }));

          const after = await newScan();
          expect(await runScan(database.db, after, watching, logger)).toBe('completed');
          expect((await read(after))?.fingerprints).toEqual(sources);
          expect((await staging(after))?.status).toBe('review');
          // The scan before the update still says what it used.
          expect((await read(before))?.fingerprints).toEqual(CATALOGUE_SOURCES);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('turns CT off when the scan says so; the names of open findings are checked all the same', async () => {
        const id = await newScan({
          config: { skipDiscovery: false, useCertificateTransparency: false, useMultiStageValidation: false },
        });
        expect(await runScan(database.db, id, settings, logger)).toBe('completed');
        const checked = (await read(id))?.subdomains;
        expect(checked).not.toContain(`docs.${RUN_DOMAIN}`);
        // Only CT knew it, but it is an open finding since the first scan: still looked at.
        expect(checked).toContain(`staging.${RUN_DOMAIN}`);
      });

      it('a name whose check could not finish is not checked: its open finding stays open, its error is kept', async () => {
        const staging = `staging.${RUN_DOMAIN}`;
        expect(await runScan(database.db, await newScan(), settings, logger)).toBe('completed');
        dns.behaviours.set(staging, 'servfail');
        try {
          const id = await newScan();
          expect(await runScan(database.db, id, settings, logger)).toBe('completed');
          const row = await read(id);
          expect(row?.subdomains).not.toContain(staging);
          expect(row?.scanErrors.some((e) => e.subdomain === staging)).toBe(true);
          expect(row?.changes?.resolved.map((f) => f.subdomain)).not.toContain(staging);
          const open = await database.db
            .select()
            .from(findings)
            .where(
              and(
                eq(findings.domain, RUN_DOMAIN),
                eq(findings.subdomain, staging),
                isNull(findings.resolvedAt),
              ),
            );
          expect(open.length).toBeGreaterThan(0);
        } finally {
          dns.behaviours.delete(staging);
        }
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
        // Of other domains: one domain has one active scan at a time.
        const a = await newScan({ status: 'running', heartbeatAt: new Date(), domain: `a.${RUN_DOMAIN}` });
        const b = await newScan({ status: 'running', heartbeatAt: new Date(), domain: `b.${RUN_DOMAIN}` });
        const c = await newScan();
        expect(await runScan(database.db, c, settings, logger)).toBe('deferred');
        expect((await read(c))?.status).toBe('pending');
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, a));
        await database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, b));
      });
    },
  );
}
