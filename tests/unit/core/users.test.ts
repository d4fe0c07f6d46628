import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underUserLock } from '../../../src/core/users/users.ts';
import type { Database } from '../../../src/db/client.ts';
import { apiKeys, users } from '../../../src/db/schema.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `underUserLock on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const tag = `${backend.name}-${Date.now()}`.toLowerCase();
      const ann = `ann-lock-${tag}`;
      const bob = `bob-lock-${tag}`;

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values([
          { id: ann, email: 'ann@lock.test', provider: 'google' },
          { id: bob, email: 'bob@lock.test', provider: 'google' },
        ]);
      });
      afterAll(async () => {
        await database?.close();
      });

      it("runs one user's locked work after the other, so a check and its insert do not interleave", async () => {
        const order: string[] = [];
        let releaseFirst = () => {};
        const firstHolds = new Promise<void>((resolve) => {
          releaseFirst = resolve;
        });
        let firstStarted = () => {};
        const started = new Promise<void>((resolve) => {
          firstStarted = resolve;
        });
        const first = underUserLock(database.db, ann, async (tx) => {
          order.push('first in');
          firstStarted();
          await firstHolds;
          await tx
            .insert(apiKeys)
            .values({ workspaceId: ann, name: 'first', prefix: 'dw_first', hash: `h1-${tag}` });
          order.push('first out');
        });
        await started;
        const second = underUserLock(database.db, ann, async (tx) => {
          order.push('second in');
          const rows = await tx.select().from(apiKeys).where(eq(apiKeys.workspaceId, ann));
          order.push(`second sees ${rows.length}`);
        });
        // Another user's work is not held up by Ann's lock (on PostgreSQL; PGlite runs one
        // transaction at a time, so there it waits too and is not asked).
        if (database.kind === 'postgres') {
          await underUserLock(database.db, bob, async () => {
            order.push('bob');
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        releaseFirst();
        await Promise.all([first, second]);
        expect(order).toEqual([
          'first in',
          ...(database.kind === 'postgres' ? ['bob'] : []),
          'first out',
          'second in',
          'second sees 1',
        ]);
      });

      it('rolls back what the work wrote when it throws, and lets the error through', async () => {
        await expect(
          underUserLock(database.db, bob, async (tx) => {
            await tx
              .insert(apiKeys)
              .values({ workspaceId: bob, name: 'gone', prefix: 'dw_gone', hash: `h2-${tag}` });
            throw new Error('over the limit');
          }),
        ).rejects.toThrow('over the limit');
        expect(await database.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, bob))).toEqual([]);
      });
    },
  );
}
