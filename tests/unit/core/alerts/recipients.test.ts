import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRecipients, connectionManagerAddresses } from '../../../../src/core/alerts/recipients.ts';
import type { Database } from '../../../../src/db/client.ts';
import { users, workspaceMembers, workspaces } from '../../../../src/db/schema.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const TEAM = 'team-recipients';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `alert recipients on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values([
          { id: 'r-owner', email: 'owner@example.org', provider: 'google' },
          { id: 'r-admin', email: 'admin@example.org', provider: 'google' },
          { id: 'r-member', email: 'member@example.org', provider: 'github' },
          { id: 'r-viewer', email: 'viewer@example.org', provider: 'github' },
          { id: 'r-quiet', email: 'quiet@example.org', provider: 'github' },
          { id: 'r-no-address', email: null, provider: 'github' },
        ]);
        await database.db.insert(workspaces).values({ id: TEAM, name: 'Team', tier: 'intro' });
        const joined = (day: number) => new Date(`2026-11-0${day}T00:00:00Z`);
        await database.db.insert(workspaceMembers).values([
          // Inserted out of their joining order: the recipients come in the order they joined.
          { workspaceId: TEAM, userId: 'r-viewer', role: 'viewer', joinedAt: joined(4) },
          { workspaceId: TEAM, userId: 'r-owner', role: 'owner', joinedAt: joined(1) },
          { workspaceId: TEAM, userId: 'r-member', role: 'member', joinedAt: joined(3) },
          { workspaceId: TEAM, userId: 'r-admin', role: 'admin', joinedAt: joined(2) },
          { workspaceId: TEAM, userId: 'r-quiet', role: 'admin', joinedAt: joined(5), alertsEmail: false },
          { workspaceId: TEAM, userId: 'r-no-address', role: 'owner', joinedAt: joined(6) },
        ]);
      });
      afterAll(() => database?.close());

      it("a scan's alert goes to every member with an address who has not turned it off, in joining order", async () => {
        expect(await alertRecipients(database.db, TEAM)).toEqual([
          { userId: 'r-owner', email: 'owner@example.org' },
          { userId: 'r-admin', email: 'admin@example.org' },
          { userId: 'r-member', email: 'member@example.org' },
          { userId: 'r-viewer', email: 'viewer@example.org' },
        ]);
      });

      it('a failing connection is told to those who may manage connections, whatever their alert switch', async () => {
        expect((await connectionManagerAddresses(database.db, TEAM)).sort()).toEqual([
          'admin@example.org',
          'owner@example.org',
          'quiet@example.org',
        ]);
      });

      it('another workspace hears nothing of this one', async () => {
        expect(await alertRecipients(database.db, 'no-such-workspace')).toEqual([]);
        expect(await connectionManagerAddresses(database.db, 'no-such-workspace')).toEqual([]);
      });
    },
  );
}
