import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underWorkspaceLock } from '../../../../src/core/workspaces/workspaces.ts';
import type { Database } from '../../../../src/db/client.ts';
import { apiKeys, users, workspaces } from '../../../../src/db/schema.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `underWorkspaceLock on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const tag = `${backend.name}-${Date.now()}`.toLowerCase();
      const bob = `bob-lock-${tag}`;
      // A team workspace has no account row of its own: its lock must still hold.
      const team = `team-lock-${tag}`;

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values({ id: bob, email: 'bob@lock.test', provider: 'google' });
        await database.db.insert(workspaces).values({ id: team, name: 'Team' });
      });
      afterAll(async () => {
        await database?.close();
      });

      it("runs one workspace's locked work after the other, so a check and its insert do not interleave", async () => {
        const order: string[] = [];
        let releaseFirst = () => {};
        const firstHolds = new Promise<void>((resolve) => {
          releaseFirst = resolve;
        });
        let firstStarted = () => {};
        const started = new Promise<void>((resolve) => {
          firstStarted = resolve;
        });
        const first = underWorkspaceLock(database.db, team, async (tx) => {
          order.push('first in');
          firstStarted();
          await firstHolds;
          await tx
            .insert(apiKeys)
            .values({ workspaceId: team, name: 'first', prefix: 'dw_first', hash: `h1-${tag}` });
          order.push('first out');
        });
        await started;
        const second = underWorkspaceLock(database.db, team, async (tx) => {
          order.push('second in');
          const rows = await tx.select().from(apiKeys).where(eq(apiKeys.workspaceId, team));
          order.push(`second sees ${rows.length}`);
        });
        // Another workspace's work is not held up by the team's lock (on PostgreSQL; PGlite runs one
        // transaction at a time, so there it waits too and is not asked).
        if (database.kind === 'postgres') {
          await underWorkspaceLock(database.db, bob, async () => {
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
          underWorkspaceLock(database.db, bob, async (tx) => {
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
