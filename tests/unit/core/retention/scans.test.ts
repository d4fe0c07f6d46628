import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredScans } from '../../../../src/core/retention/scans.ts';
import type { Database } from '../../../../src/db/client.ts';
import { scans, users, workspaces } from '../../../../src/db/schema.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const DAY = 24 * 60 * 60_000;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scan retention on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const now = new Date('2026-11-22T12:00:00Z');

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values([
          { id: 'u-free', email: 'f@present.com', provider: 'google' },
          { id: 'u-intro', email: 'i@intro.com', provider: 'google' },
        ]);
        await database.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, 'u-intro'));
      });
      afterAll(() => database?.close());

      it('purges scans older than the owner plan keeps them', async () => {
        const old = (days: number) => new Date(now.getTime() - days * DAY);
        await database.db.insert(scans).values([
          { workspaceId: 'u-free', domain: 'a.com', status: 'completed', createdAt: old(8) },
          { workspaceId: 'u-free', domain: 'a.com', status: 'completed', createdAt: old(6) },
          { workspaceId: 'u-intro', domain: 'b.com', status: 'completed', createdAt: old(30) },
          { workspaceId: 'u-intro', domain: 'b.com', status: 'completed', createdAt: old(91) },
        ]);
        expect(await purgeExpiredScans(database.db, now)).toBe(2);
        const left = await database.db.select({ user: scans.workspaceId, at: scans.createdAt }).from(scans);
        expect(left.map((r) => [r.user, Math.round((now.getTime() - r.at.getTime()) / DAY)]).sort()).toEqual([
          ['u-free', 6],
          ['u-intro', 30],
        ]);
      });
    },
  );
}
