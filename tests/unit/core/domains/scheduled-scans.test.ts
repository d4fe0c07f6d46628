import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextScanAfter } from '../../../../src/core/domains/schedule.ts';
import { scheduleDueScans } from '../../../../src/core/domains/scheduled-scans.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, leases, scans, users, workspaces } from '../../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { databaseBackends } from '../../../helpers/databases.ts';
import { until } from '../../../helpers/until.ts';

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
        ).toEqual({ busy: false, reached: 3, started: 2, stoppedAtDeadline: false });

        const [presentScan] = await scansOf(present.id);
        expect(presentScan).toMatchObject({ trigger: 'scheduled', status: 'pending', domain: 'present.com' });
        expect(queued).toContain(presentScan?.id);
        // At the domain's own minute of the day, the one nearest a day from now.
        expect((await read(present.id))?.nextScanAt?.toISOString()).toBe(
          nextScanAfter(present, now)?.toISOString(),
        );
        expect((await read(present.id))?.ownershipCheckedAt.toISOString()).toBe(now.toISOString());

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
          (await scheduleDueScans(database.db, queue, logger, { resolvers: [`127.0.0.1:${dns.port}`], now }))
            .reached,
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

      it('a second pass leaves at once while one runs, and the next one after it runs', async () => {
        const held = await addDomain('held-pass.com', { workspaceId: 'u-intro' });
        dns.add('held-pass.com', { type: 'TXT', data: `danglewatch-verify=${held.verificationToken}` });
        dns.delayMs = 1_500;
        try {
          const options = { resolvers: [`127.0.0.1:${dns.port}`], now };
          const first = scheduleDueScans(database.db, queue, logger, options);
          // The first pass holds the schedule from its start until its lookups are answered.
          await until(
            async () => ((await database.db.select().from(leases)).length > 0 ? true : undefined),
            5_000,
          );
          const second = await scheduleDueScans(database.db, queue, logger, options);
          expect(second).toEqual({ busy: true, reached: 0, started: 0, stoppedAtDeadline: false });
          expect(await first).toMatchObject({ busy: false, reached: 1, started: 1 });
          expect(await database.db.select().from(leases)).toEqual([]);
          expect(await scheduleDueScans(database.db, queue, logger, options)).toMatchObject({
            busy: false,
            reached: 0,
          });
          expect(await scansOf(held.id)).toHaveLength(1);
        } finally {
          dns.delayMs = 0;
        }
      }, 30_000);

      it('stops at its time limit; what it did not reach stays due for the next pass', async () => {
        const rows = [];
        for (const [i, name] of ['first-due.com', 'second-due.com', 'third-due.com'].entries()) {
          const row = await addDomain(name, {
            workspaceId: 'u-intro',
            nextScanAt: new Date(now.getTime() - (3 - i) * 60_000),
          });
          dns.add(name, { type: 'TXT', data: `danglewatch-verify=${row.verificationToken}` });
          rows.push(row);
        }
        dns.delayMs = 600;
        try {
          const options = { resolvers: [`127.0.0.1:${dns.port}`], now, pageSize: 1, budgetMs: 300 };
          expect(await scheduleDueScans(database.db, queue, logger, options)).toEqual({
            busy: false,
            reached: 1,
            started: 1,
            stoppedAtDeadline: true,
          });
          const [first, ...rest] = rows;
          expect(await scansOf(first?.id ?? '')).toHaveLength(1);
          for (const row of rest) {
            expect(await scansOf(row.id)).toHaveLength(0);
            expect((await read(row.id))?.nextScanAt).toEqual(row.nextScanAt);
          }
          expect(
            await scheduleDueScans(database.db, queue, logger, { ...options, budgetMs: 10_000 }),
          ).toMatchObject({ reached: 2, started: 2, stoppedAtDeadline: false });
        } finally {
          dns.delayMs = 0;
        }
      }, 30_000);

      it('works in pages: one job insert each, a domain still being scanned is moved on without a second scan', async () => {
        await database.db.insert(users).values({ id: 'u-pages', email: 'p@pages.com', provider: 'google' });
        await database.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, 'u-pages'));
        // Proven by their zones' delegation a moment ago: no TXT lookup.
        const zone = { workspaceId: 'u-pages', proof: 'zone', ownershipCheckedAt: now };
        const rows = [];
        // Due one after the other, so the pages are [0, 1], [2, 3], [4, shared].
        const dueAt = (i: number) => new Date(now.getTime() - (10 - i) * 60_000);
        for (let i = 0; i < 5; i++)
          rows.push(await addDomain(`page-${i}.com`, { ...zone, nextScanAt: dueAt(i) }));
        const busy = rows[2];
        if (!busy) throw new Error('no domain');
        const [active] = await database.db
          .insert(scans)
          .values({ workspaceId: 'u-pages', domainId: busy.id, domain: busy.domain, status: 'running' })
          .returning();
        // Its shared proof's source is gone: pending again, not scanned.
        const lapsed = await addDomain('page-shared.com', {
          workspaceId: 'u-pages',
          proof: 'shared',
          nextScanAt: dueAt(5),
        });
        const batches: string[][] = [];
        const batching = {
          enqueue: async (id: string) => void batches.push([id]),
          enqueueMany: async (ids: string[]) => void batches.push(ids),
        };
        expect(await scheduleDueScans(database.db, batching, logger, { now, pageSize: 2 })).toEqual({
          busy: false,
          reached: 6,
          started: 4,
          stoppedAtDeadline: false,
        });
        expect(batches.map((ids) => ids.length)).toEqual([2, 1, 1]);
        for (const row of rows) {
          const kept = await scansOf(row.id);
          expect(kept).toHaveLength(1);
          if (row === busy) expect(kept[0]?.id).toBe(active?.id);
          else expect(batches.flat()).toContain(kept[0]?.id);
          expect((await read(row.id))?.nextScanAt?.toISOString()).toBe(
            nextScanAfter(row, now)?.toISOString(),
          );
        }
        expect(await read(lapsed.id)).toMatchObject({ status: 'pending', proof: null, nextScanAt: null });
        expect(await scansOf(lapsed.id)).toHaveLength(0);
      });

      // A user's change that commits while the pass holds the page: the pass's write waits for it
      // and then finds the domain no longer due. Needs a second connection to hold the change open.
      if (backend.name === 'PostgreSQL')
        it('a domain changed to manual while the pass reads its page is not scanned', async () => {
          if (database.kind !== 'postgres') throw new Error('needs a second connection');
          const [changed, other] = [
            await addDomain('changed-meanwhile.com', {
              workspaceId: 'u-pages',
              proof: 'zone',
              ownershipCheckedAt: now,
            }),
            await addDomain('unchanged.com', {
              workspaceId: 'u-pages',
              proof: 'zone',
              ownershipCheckedAt: now,
            }),
          ];
          const user = await database.pool.connect();
          try {
            await user.query('begin');
            await user.query(
              `update domains set scan_config = scan_config || '{"scanFrequency":"manual"}', next_scan_at = null where id = $1`,
              [changed.id],
            );
            const pass = scheduleDueScans(database.db, queue, logger, { now });
            await new Promise((resolve) => setTimeout(resolve, 300));
            await user.query('commit');
            expect(await pass).toMatchObject({ reached: 2, started: 1 });
          } finally {
            user.release();
          }
          expect(await scansOf(changed.id)).toHaveLength(0);
          expect((await read(changed.id))?.nextScanAt).toBeNull();
          expect(await scansOf(other.id)).toHaveLength(1);
        });
    },
  );
}
