import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimScan } from '../../../../src/core/scans/concurrency.ts';
import type { Database } from '../../../../src/db/client.ts';
import { scans, users } from '../../../../src/db/schema.ts';
import { USER_CONCURRENT_SCANS } from '../../../../src/model/constants.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scan concurrency on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const workspaceId = `concurrency-${backend.name}`;
      beforeAll(async () => {
        database = await backend.open();
        await database.db
          .insert(users)
          .values({ id: workspaceId, email: 'c@example.org', provider: 'google' });
      });
      afterAll(() => database?.close());

      // Each of a domain of its own: one domain has one active scan at a time.
      let domainsMade = 0;
      const newScan = async (status: 'pending' | 'running' = 'pending') => {
        domainsMade += 1;
        const [row] = await database.db
          .insert(scans)
          .values({ workspaceId, domain: `d${domainsMade}.example.org`, status })
          .returning();
        if (!row) throw new Error('no scan');
        return row;
      };

      it('claims a pending scan: running, one more attempt', async () => {
        const scan = await newScan();
        const started = new Date();
        const claimed = await claimScan(database.db, scan, started);
        expect(claimed).toMatchObject({ id: scan.id, status: 'running', attempts: 1, startedAt: started });
        expect(await claimScan(database.db, scan, started)).toBeUndefined();
        await database.db.update(scans).set({ status: 'completed' }).where(eq(scans.id, scan.id));
      });

      it('with one slot left, one more scan runs and the next is deferred, still pending', async () => {
        for (let i = 0; i < USER_CONCURRENT_SCANS - 1; i++) await newScan('running');
        const [a, b] = [await newScan(), await newScan()];
        expect(await claimScan(database.db, a, new Date())).toMatchObject({ status: 'running' });
        expect(await claimScan(database.db, b, new Date())).toBe('deferred');
        const [stillPending] = await database.db.select().from(scans).where(eq(scans.id, b.id));
        expect(stillPending).toMatchObject({ status: 'pending', attempts: 0 });
        await database.db
          .update(scans)
          .set({ status: 'completed' })
          .where(eq(scans.workspaceId, workspaceId));
      });

      // Two workers claiming at once would each count a free slot: a claim waits for the other's.
      if (backend.name === 'PostgreSQL')
        it("a claim waits while another claim of the workspace holds the workspace's lock", async () => {
          if (database.kind !== 'postgres') throw new Error('needs a second connection');
          const scan = await newScan();
          const other = await database.pool.connect();
          try {
            await other.query('begin');
            await other.query('select pg_advisory_xact_lock(hashtext($1))', [workspaceId]);
            let settled = false;
            const claim = claimScan(database.db, scan, new Date()).finally(() => {
              settled = true;
            });
            await new Promise((resolve) => setTimeout(resolve, 300));
            expect(settled).toBe(false);
            await other.query('commit');
            expect(await claim).toMatchObject({ id: scan.id, status: 'running' });
          } finally {
            other.release();
          }
        });
    },
  );
}
