import { type ChildProcess, spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reapStaleScans, WORKER_LOST_MESSAGE } from '../../../../src/core/scans/reaper.ts';
import { runScan } from '../../../../src/core/scans/run.ts';
import type { Database } from '../../../../src/db/client.ts';
import { scans } from '../../../../src/db/schema.ts';
import { STALE_HEARTBEAT_MS } from '../../../../src/model/constants.ts';
import { openScanRunWorld, type ScanRunWorld } from '../../../fixtures/scan-run-world.ts';
import { databaseBackends } from '../../../helpers/databases.ts';
import { until } from '../../../helpers/until.ts';

const logger = pino({ level: 'silent' });

function databaseUrl(database: Database): string {
  if (database.kind !== 'postgres') throw new Error('a second process needs PostgreSQL');
  return String(database.pool.options.connectionString);
}

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the reaper on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let world: ScanRunWorld;
      beforeAll(async () => {
        world = await openScanRunWorld(backend, `reaper-${backend.name}-${Date.now()}`);
      });
      afterAll(() => world?.close());

      it('the reaper gives a scan of a dead worker another try, then fails it with a reason', async () => {
        const old = new Date(Date.now() - STALE_HEARTBEAT_MS - 1_000);
        const once = await world.newScan({ status: 'running', heartbeatAt: old, attempts: 1 });
        // Of other domains: one domain has one active scan at a time.
        const twice = await world.newScan({
          status: 'running',
          heartbeatAt: old,
          attempts: 2,
          domain: 'twice.test',
        });
        const alive = await world.newScan({
          status: 'running',
          heartbeatAt: new Date(),
          attempts: 1,
          domain: 'alive.test',
        });
        const { retried, abandoned } = await reapStaleScans(world.database.db);
        expect(retried).toContain(once);
        expect(retried).not.toContain(twice);
        expect(abandoned).toEqual(expect.arrayContaining([once, twice]));
        expect(abandoned).not.toContain(alive);
        expect((await world.read(once))?.status).toBe('pending');
        expect(await world.read(twice)).toMatchObject({ status: 'failed', error: WORKER_LOST_MESSAGE });
        expect((await world.read(alive))?.status).toBe('running');
        await world.database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, alive));
        expect(await runScan(world.database.db, once, world.settings, logger)).toBe('completed');
      });

      it('the reaper names scans pending past the stale window, whose job may have been lost', async () => {
        const old = new Date(Date.now() - STALE_HEARTBEAT_MS - 1_000);
        const lost = await world.newScan({ createdAt: old });
        const fresh = await world.newScan({ domain: 'fresh.test' });
        const { waiting, retried } = await reapStaleScans(world.database.db);
        expect(waiting).toContain(lost);
        expect(waiting).not.toContain(fresh);
        expect(retried).toEqual([]);
        await world.database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, lost));
        await world.database.db.update(scans).set({ status: 'failed' }).where(eq(scans.id, fresh));
      });

      // Two processes cannot share an embedded database: this one needs PostgreSQL.
      if (backend.name === 'PostgreSQL')
        it('a worker killed with SIGKILL mid-scan does not leave its scan running', async () => {
          const id = await world.newScan();
          world.dns.delayMs = 300;
          let child: ChildProcess | undefined;
          try {
            const slow = {
              ...world.settings,
              wordlist: Array.from({ length: 500 }, (_, i) => `k${i}`),
              concurrency: 4,
            };
            child = spawn(
              process.execPath,
              ['tests/helpers/scan-worker-child.ts', id, databaseUrl(world.database), JSON.stringify(slow)],
              { stdio: ['ignore', 'pipe', 'inherit'] },
            );
            await until(
              async () => ((await world.read(id))?.status === 'running' ? true : undefined),
              30_000,
            );
            child.kill('SIGKILL');
            await new Promise((r) => child?.once('exit', r));
            expect((await world.read(id))?.status).toBe('running');
            // Minutes later (the clock moved on by the stale limit), the reaper takes it back.
            const later = new Date(Date.now() + STALE_HEARTBEAT_MS + 5_000);
            expect((await reapStaleScans(world.database.db, later)).retried).toContain(id);
            expect((await world.read(id))?.status).toBe('pending');
          } finally {
            world.dns.delayMs = 0;
            child?.kill('SIGKILL');
          }
          expect(await runScan(world.database.db, id, world.settings, logger)).toBe('completed');
        }, 60_000);
    },
  );
}
