import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import { type ActivityResponse, describeActivity } from '../../../src/model/activity.ts';
import { WORKSPACE_MESSAGES, type WorkspaceView } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `a workspace's activity on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend);
      const { call, tag } = api;
      /** Olive owns the team; Vic is its viewer; Max joins and is removed; Nia is not in it. */
      let olive: MintedUser;
      let vic: MintedUser;
      let max: MintedUser;
      let nia: MintedUser;
      let team: WorkspaceView;

      const activity = async (user: MintedUser, query = '') => {
        const res = await call(`/api/workspaces/${team.id}/activity${query}`, { token: user.idToken });
        expect(res.status).toBe(200);
        return (await res.json()) as ActivityResponse;
      };

      beforeAll(async () => {
        const person = (name: string) =>
          api.signIn(name, {
            email: `${name}@activity-${tag}.com`,
            name: name[0]?.toUpperCase() + name.slice(1),
          });
        [olive, vic, max, nia] = [
          await person('olive'),
          await person('vic'),
          await person('max'),
          await person('nia'),
        ];
        const made = await call('/api/workspaces', {
          method: 'POST',
          token: olive.idToken,
          body: { name: 'Acme' },
        });
        team = ((await made.json()) as { workspace: WorkspaceView }).workspace;
        // Solo's ten seats: room for the members and the invitation below.
        await api.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, team.id));
        await api.db.insert(workspaceMembers).values([
          { workspaceId: team.id, userId: vic.uid, role: 'viewer' },
          { workspaceId: team.id, userId: max.uid, role: 'member' },
        ]);
        const invited = await call(`/api/workspaces/${team.id}/invitations`, {
          method: 'POST',
          token: olive.idToken,
          body: { email: `dee@activity-${tag}.com`, role: 'admin' },
        });
        const { invitation } = (await invited.json()) as { invitation: { id: string } };
        await call(`/api/workspaces/${team.id}/invitations/${invitation.id}`, {
          method: 'DELETE',
          token: olive.idToken,
        });
        await call(`/api/workspaces/${team.id}/members/${max.uid}`, {
          method: 'PATCH',
          token: olive.idToken,
          body: { role: 'admin' },
        });
        await call(`/api/workspaces/${team.id}/members/${max.uid}`, {
          method: 'DELETE',
          token: olive.idToken,
        });
      });

      it('tells every member, a viewer too, who did what, newest first, in plain words', async () => {
        const { entries, nextBefore } = await activity(vic);
        expect(nextBefore).toBeNull();
        expect(entries.map(describeActivity)).toEqual([
          'Olive removed Max',
          'Olive made Max admin',
          `Olive withdrew the invitation of dee@activity-${tag}.com`,
          `Olive invited dee@activity-${tag}.com as admin`,
          'Olive created the workspace Acme',
        ]);
        expect(entries[0]).toMatchObject({
          action: 'member.removed',
          actor: { userId: olive.uid, displayName: 'Olive' },
          member: { userId: max.uid, email: `max@activity-${tag}.com` },
        });
        // The IP addresses the log keeps are the actor's own: not shown to the workspace.
        expect(JSON.stringify(entries)).not.toMatch(/"ip"/);
      });

      it('pages through entries that share a millisecond without losing or repeating one', async () => {
        const at = new Date('2026-11-20T10:00:00.123Z');
        await api.db.insert(auditLog).values(
          ['a.acme.com', 'b.acme.com', 'c.acme.com', 'd.acme.com'].map((domain) => ({
            userId: olive.uid,
            workspaceId: team.id,
            action: 'domain.added',
            detail: { domain },
            createdAt: at,
          })),
        );
        const seen: string[] = [];
        let before: string | null = null;
        do {
          const page: ActivityResponse = await activity(
            olive,
            `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`,
          );
          expect(page.entries.length).toBeLessThanOrEqual(2);
          seen.push(...page.entries.map((e) => e.id));
          before = page.nextBefore;
        } while (before);
        expect(seen).toHaveLength(9);
        expect(new Set(seen).size).toBe(9);
      });

      it('is not found for someone outside the workspace, and needs a signed-in caller', async () => {
        await expectError(
          await call(`/api/workspaces/${team.id}/activity`, { token: nia.idToken }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        await expectError(await call(`/api/workspaces/${team.id}/activity`), 401, 'Authentication required');
      });

      it('refuses a cursor it did not make, and a limit out of range', async () => {
        for (const query of ['?before=yesterday', '?limit=0', '?limit=101', '?colour=red']) {
          const res = await call(`/api/workspaces/${team.id}/activity${query}`, { token: olive.idToken });
          expect(res.status, query).toBe(400);
        }
      });
    },
  );
}
