import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { workspaceInvitations, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import type { MembersResponse, WorkspaceView } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `workspaces on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend);
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      const team = `team-${tag}`;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: 'ann@acme.com', name: 'Ann' });
        bob = await api.signIn('bob', { email: 'bob@bob.com' });
        await api.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, ann.uid));
        // A team workspace of Ann's, Bob a viewer in it, one invitation out: what the invitation
        // flow leaves behind.
        await api.db.insert(workspaces).values({ id: team, name: 'Acme team' });
        await api.db.insert(workspaceMembers).values([
          { workspaceId: team, userId: ann.uid, role: 'owner', joinedAt: new Date('2026-11-01T00:00:00Z') },
          { workspaceId: team, userId: bob.uid, role: 'viewer', joinedAt: new Date('2026-11-02T00:00:00Z') },
        ]);
        await api.db.insert(workspaceInvitations).values([
          {
            workspaceId: team,
            email: 'cleo@acme.com',
            role: 'member',
            tokenHash: `hash-${tag}`,
            invitedBy: ann.uid,
            expiresAt: new Date(Date.now() + 86_400_000),
          },
          {
            workspaceId: team,
            email: 'old@acme.com',
            role: 'member',
            tokenHash: `expired-${tag}`,
            invitedBy: ann.uid,
            expiresAt: new Date(Date.now() - 1000),
          },
        ]);
      });

      it.each([['/api/workspaces'], ['/api/workspaces/x/members']])(
        'GET %s without a token answers 401',
        async (path) => {
          await expectError(await call(path), 401, 'Authentication required');
        },
      );

      it('lists the caller’s workspaces, the personal one first, with role, plan and members', async () => {
        const res = await call('/api/workspaces', { token: ann.idToken });
        expect(res.status).toBe(200);
        const { workspaces: list } = (await res.json()) as { workspaces: WorkspaceView[] };
        expect(list).toEqual([
          { id: ann.uid, name: 'Personal', personal: true, role: 'owner', plan: 'solo', memberCount: 1 },
          { id: team, name: 'Acme team', personal: false, role: 'owner', plan: 'free', memberCount: 2 },
        ]);
        const bobs = (await (await call('/api/workspaces', { token: bob.idToken })).json()) as {
          workspaces: WorkspaceView[];
        };
        expect(bobs.workspaces.map((w) => [w.id, w.role])).toEqual([
          [bob.uid, 'owner'],
          [team, 'viewer'],
        ]);
      });

      it('shows members and pending invitations to any member, a viewer included', async () => {
        for (const user of [ann, bob]) {
          const res = await call(`/api/workspaces/${team}/members`, { token: user.idToken });
          expect(res.status).toBe(200);
          const body = (await res.json()) as MembersResponse;
          expect(body.members).toEqual([
            {
              userId: ann.uid,
              email: 'ann@acme.com',
              displayName: 'Ann',
              role: 'owner',
              alertsEmail: true,
              joinedAt: '2026-11-01T00:00:00.000Z',
            },
            {
              userId: bob.uid,
              email: 'bob@bob.com',
              displayName: null,
              role: 'viewer',
              alertsEmail: true,
              joinedAt: '2026-11-02T00:00:00.000Z',
            },
          ]);
          expect(body.invitations).toEqual([
            { id: expect.any(String), email: 'cleo@acme.com', role: 'member', expiresAt: expect.any(String) },
          ]);
        }
      });

      it('answers 404 for a workspace the caller is not in, as for one that does not exist', async () => {
        await expectError(
          await call(`/api/workspaces/${ann.uid}/members`, { token: bob.idToken }),
          404,
          'Workspace not found',
        );
        await expectError(
          await call('/api/workspaces/no-such-workspace/members', { token: bob.idToken }),
          404,
          'Workspace not found',
        );
      });
    },
  );
}
