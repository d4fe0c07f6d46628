import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseLease, renewLease, takeLease } from '../../../src/core/leases.ts';
import type { Database } from '../../../src/db/client.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `leases on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
      });
      afterAll(() => database?.close());

      it('goes to one of many takers at once, and to another once given back', async () => {
        const db = database.db;
        const takers = Array.from({ length: 8 }, (_, i) => `worker-${i}`);
        const took = await Promise.all(takers.map((holder) => takeLease(db, 'work', holder, 60_000)));
        expect(took.filter(Boolean)).toHaveLength(1);
        const holder = takers[took.indexOf(true)] as string;
        const other = takers.find((t) => t !== holder) as string;
        expect(await renewLease(db, 'work', holder, 60_000)).toBe(true);
        expect(await renewLease(db, 'work', other, 60_000)).toBe(false);
        // Giving back someone else's lease does nothing.
        await releaseLease(db, 'work', other);
        expect(await takeLease(db, 'work', other, 60_000)).toBe(false);
        await releaseLease(db, 'work', holder);
        expect(await takeLease(db, 'work', other, 60_000)).toBe(true);
        await releaseLease(db, 'work', other);
      });

      it('runs out by itself: a holder that died holds it up no longer than its length', async () => {
        const db = database.db;
        // Long enough that a busy machine still asks again within it; short enough to wait out.
        expect(await takeLease(db, 'dead', 'gone', 2_000)).toBe(true);
        expect(await takeLease(db, 'dead', 'next', 60_000)).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 2_300));
        expect(await takeLease(db, 'dead', 'next', 60_000)).toBe(true);
        // The one that lost it learns so when it renews.
        expect(await renewLease(db, 'dead', 'gone', 60_000)).toBe(false);
      });
    },
  );
}
