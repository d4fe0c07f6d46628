import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleDueScans } from '../../../../src/core/domains/scheduled-scans.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, scans, users, workspaces } from '../../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const DAY = 24 * 60 * 60_000;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scheduler on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let dns: DnsFixture;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      const now = new Date('2026-11-22T12:00:00Z');

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        await database.db.insert(users).values([
          { id: 'u-free', email: 'f@present.com', provider: 'google' },
          { id: 'u-intro', email: 'i@intro.com', provider: 'google' },
        ]);
        await database.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, 'u-intro'));
      });
      afterAll(async () => {
        await dns?.close();
        await database?.close();
      });

      const addDomain = async (domain: string, extra: Partial<typeof domains.$inferInsert> = {}) => {
        const token = domain.replace(/\W/g, '').padEnd(24, 'x');
        const [row] = await database.db
          .insert(domains)
          .values({
            workspaceId: 'u-free',
            domain,
            verificationToken: token,
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
            nextScanAt: new Date(now.getTime() - 60_000),
            ...extra,
          })
          .returning();
        if (!row) throw new Error('no domain');
        return row;
      };
      const read = async (id: string) =>
        (await database.db.select().from(domains).where(eq(domains.id, id)))[0];
      const scansOf = (id: string) => database.db.select().from(scans).where(eq(scans.domainId, id));

      it('starts due scans after checking ownership again, and moves the next scan on', async () => {
        const present = await addDomain('present.com');
        dns.add('present.com', { type: 'TXT', data: `danglewatch-verify=${present.verificationToken}` });
        const missing = await addDomain('missing.com', { workspaceId: 'u-intro' });
        const longGone = await addDomain('longgone.com', {
          workspaceId: 'u-intro',
          recordMissingSince: new Date(now.getTime() - 8 * DAY),
        });
        const manual = await addDomain('manual.com', {
          workspaceId: 'u-intro',
          scanConfig: { ...DEFAULT_SCAN_CONFIG, scanFrequency: 'manual' },
        });
        const later = await addDomain('later.com', {
          workspaceId: 'u-intro',
          nextScanAt: new Date(now.getTime() + DAY),
        });

        expect(
          await scheduleDueScans(database.db, queue, logger, { resolvers: [`127.0.0.1:${dns.port}`], now }),
        ).toBe(2);

        const [presentScan] = await scansOf(present.id);
        expect(presentScan).toMatchObject({ trigger: 'scheduled', status: 'pending', domain: 'present.com' });
        expect(queued).toContain(presentScan?.id);
        expect((await read(present.id))?.nextScanAt?.toISOString()).toBe(
          new Date(now.getTime() + DAY).toISOString(),
        );

        // Missing for less than seven days: still scanned, and the first miss is remembered.
        expect(await scansOf(missing.id)).toHaveLength(1);
        expect((await read(missing.id))?.recordMissingSince?.toISOString()).toBe(now.toISOString());

        // Missing for seven days: monitoring pauses and says why; no scan.
        expect(await scansOf(longGone.id)).toHaveLength(0);
        expect((await read(longGone.id))?.pausedReason).toBe(
          `Monitoring paused: the TXT record danglewatch-verify=${longGone.verificationToken} has been missing from longgone.com since 2026-11-14. Add it back and verify again to resume.`,
        );
        expect(await scansOf(manual.id)).toHaveLength(0);
        expect(await scansOf(later.id)).toHaveLength(0);

        // A second run at the same moment finds nothing due.
        expect(
          await scheduleDueScans(database.db, queue, logger, { resolvers: [`127.0.0.1:${dns.port}`], now }),
        ).toBe(0);
      });

      it("regression: one tenant's slow nameserver does not hold up everyone else's scheduled scans", async () => {
        await database.db.insert(users).values({ id: 'u-slow', email: 's@slow.com', provider: 'google' });
        await database.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, 'u-slow'));
        const slow = await addDomain('slow-ns.com', {
          workspaceId: 'u-slow',
          nextScanAt: new Date(now.getTime() - DAY),
        });
        dns.behaviours.set('slow-ns.com', 'timeout');
        const fast = [];
        for (const name of ['quick-a.com', 'quick-b.com', 'quick-c.com']) {
          const row = await addDomain(name, { workspaceId: 'u-slow' });
          dns.add(name, { type: 'TXT', data: `danglewatch-verify=${row.verificationToken}` });
          fast.push(row);
        }
        const at = new Map<string, number>();
        const started = Date.now();
        const timed = {
          enqueue: async (id: string) => {
            const [scan] = await database.db.select().from(scans).where(eq(scans.id, id));
            at.set(scan?.domain ?? id, Date.now() - started);
          },
        };
        await scheduleDueScans(database.db, timed, logger, { resolvers: [`127.0.0.1:${dns.port}`], now });
        // The slow domain's lookup times out (3 s, twice); the others started meanwhile, not after it.
        for (const row of fast) expect(at.get(row.domain), row.domain).toBeLessThan(2_000);
        expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
        expect((await read(slow.id))?.recordMissingSince).toBeNull();
        dns.behaviours.delete('slow-ns.com');
      }, 30_000);
    },
  );
}
