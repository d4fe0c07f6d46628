import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../src/core/mail/mailer.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { auditLog, workspaceInvitations, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import {
  type MembersResponse,
  WORKSPACE_HEADER,
  WORKSPACE_MESSAGES,
  type WorkspaceView,
} from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `workspace members and invitations on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const outbox = mkdtempSync(join(tmpdir(), 'dw-invitations-'));
      const api = apiSuite(backend, {
        publicUrl: 'https://dw.example',
        mailer: createMailer({
          from: 'DangleWatch <dw@example>',
          outboxDir: outbox,
          logger: pino({ level: 'silent' }),
        }),
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let cleo: MintedUser;
      let dan: MintedUser;
      let team: WorkspaceView;
      const annEmail = `ann-${tag}@acme.com`;
      const cleoEmail = `cleo-${tag}@acme.com`;
      const danEmail = `dan-${tag}@acme.com`;

      const invite = (user: MintedUser, body: unknown, workspace = team.id) =>
        call(`/api/workspaces/${workspace}/invitations`, { method: 'POST', token: user.idToken, body });
      const accept = (user: MintedUser, token: string) =>
        call('/api/invitations/accept', { method: 'POST', token: user.idToken, body: { token } });
      const members = async (user: MintedUser) =>
        (await (
          await call(`/api/workspaces/${team.id}/members`, { token: user.idToken })
        ).json()) as MembersResponse;
      /** The token of the newest invitation e-mail to `to`, read from the outbox as it was sent. */
      const mailedToken = (to: string) => {
        const mails = readdirSync(outbox)
          .map((name) => readFileSync(join(outbox, name), 'utf8'))
          .filter((mail) => mail.toLowerCase().includes(`to: ${to.toLowerCase()}`));
        const last = mails.at(-1) ?? '';
        // Quoted-printable, as mail goes: soft line breaks and =XX escapes undone.
        const decoded = last
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
        return /invitations\/accept\?token=([A-Za-z0-9_-]+)/.exec(decoded)?.[1] ?? '';
      };

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: annEmail, name: 'Ann' });
        cleo = await api.signIn('cleo', { email: cleoEmail });
        dan = await api.signIn('dan', { email: danEmail });
      });
      afterAll(async () => {
        rmSync(outbox, { recursive: true, force: true });
      });

      it('creates a team workspace, its creator its owner, on Free', async () => {
        await expectError(
          await call('/api/workspaces', { method: 'POST', body: { name: 'x' } }),
          401,
          'Authentication required',
        );
        await expectError(
          await call('/api/workspaces', { method: 'POST', token: ann.idToken, body: { name: '  ' } }),
          400,
          'Give the workspace a name',
        );
        const res = await call('/api/workspaces', {
          method: 'POST',
          token: ann.idToken,
          body: { name: 'Acme' },
        });
        expect(res.status).toBe(201);
        team = ((await res.json()) as { workspace: WorkspaceView }).workspace;
        expect(team).toMatchObject({
          name: 'Acme',
          personal: false,
          role: 'owner',
          plan: 'free',
          memberCount: 1,
        });
        const list = (await (await call('/api/workspaces', { token: ann.idToken })).json()) as {
          workspaces: WorkspaceView[];
        };
        expect(list.workspaces.map((w) => w.id)).toEqual([ann.uid, team.id]);
      });

      it("refuses invitations beyond the plan's members, naming its number", async () => {
        await expectError(
          await invite(ann, { email: cleoEmail, role: 'member' }),
          409,
          WORKSPACE_MESSAGES.memberLimit('Free', 1),
          'MEMBER_LIMIT',
        );
        await expectError(
          await invite(ann, { email: cleoEmail, role: 'member' }, ann.uid),
          409,
          WORKSPACE_MESSAGES.personal,
        );
        await expectError(
          await invite(ann, { email: 'not-an-address', role: 'member' }),
          400,
          'Enter an e-mail address',
        );
        // Ownership is handed over by a role change, never by an invitation.
        const asOwner = await invite(ann, { email: cleoEmail, role: 'owner' });
        expect(asOwner.status).toBe(400);
        expect(((await asOwner.json()) as { error: string }).error).toBe(
          'The role must be one of: admin, member, viewer',
        );
        expect(await setPlan(api.db, annEmail, 'intro', team.id)).toBe(1);
      });

      it('mails a link that the invited address accepts once, whatever its case', async () => {
        const res = await invite(ann, { email: cleoEmail.toUpperCase(), role: 'member' });
        expect(res.status).toBe(201);
        const { invitation } = (await res.json()) as {
          invitation: { id: string; email: string; role: string };
        };
        expect(invitation).toMatchObject({ email: cleoEmail, role: 'member' });
        expect((await members(ann)).invitations.map((i) => i.email)).toEqual([cleoEmail]);
        const token = mailedToken(cleoEmail);
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        await expectError(await accept(dan, token), 403, WORKSPACE_MESSAGES.invitationWrongEmail);
        const accepted = await accept(cleo, token);
        expect(accepted.status).toBe(200);
        expect(((await accepted.json()) as { workspace: WorkspaceView }).workspace).toMatchObject({
          id: team.id,
          role: 'member',
          plan: 'intro',
          memberCount: 2,
        });
        await expectError(await accept(cleo, token), 410, WORKSPACE_MESSAGES.invitationGone);
        // The new member sees the workspace's domains through the header.
        const domains = await api.app.request('/api/domains', {
          headers: { authorization: `Bearer ${cleo.idToken}`, [WORKSPACE_HEADER]: team.id },
        });
        expect(domains.status).toBe(200);
      });

      it('resends (a new link, the old one withdrawn), revokes, and lets a link expire', async () => {
        expect((await invite(ann, { email: danEmail, role: 'viewer' })).status).toBe(201);
        const first = mailedToken(danEmail);
        expect((await invite(ann, { email: danEmail, role: 'viewer' })).status).toBe(201);
        const second = mailedToken(danEmail);
        expect(second).not.toBe(first);
        await expectError(await accept(dan, first), 410, WORKSPACE_MESSAGES.invitationGone);
        // Owner, Cleo and Dan's pending invitation fill the Intro plan's 3.
        await expectError(
          await invite(ann, { email: 'eve@acme.com', role: 'member' }),
          409,
          WORKSPACE_MESSAGES.memberLimit('Intro', 3),
        );
        const [pending] = (await members(ann)).invitations;
        const revoked = await call(`/api/workspaces/${team.id}/invitations/${pending?.id}`, {
          method: 'DELETE',
          token: ann.idToken,
        });
        expect(revoked.status).toBe(204);
        await expectError(await accept(dan, second), 410, WORKSPACE_MESSAGES.invitationGone);
        await expectError(
          await call(`/api/workspaces/${team.id}/invitations/${pending?.id}`, {
            method: 'DELETE',
            token: ann.idToken,
          }),
          404,
          'Invitation not found',
        );
        expect((await invite(ann, { email: danEmail, role: 'viewer' })).status).toBe(201);
        await api.db
          .update(workspaceInvitations)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(workspaceInvitations.email, danEmail));
        await expectError(await accept(dan, mailedToken(danEmail)), 410, WORKSPACE_MESSAGES.invitationGone);
      });

      it('changes roles within the rules, and a removed member loses access at once', async () => {
        await expectError(
          await call(`/api/workspaces/${team.id}/members/${ann.uid}`, {
            method: 'PATCH',
            token: cleo.idToken,
            body: { role: 'viewer' },
          }),
          403,
          WORKSPACE_MESSAGES.roleNeeded('members.manage'),
          'ROLE_REQUIRED',
        );
        await expectError(
          await call(`/api/workspaces/${team.id}/members/${ann.uid}`, {
            method: 'PATCH',
            token: ann.idToken,
            body: { role: 'admin' },
          }),
          409,
          WORKSPACE_MESSAGES.lastOwner,
        );
        // Each member chooses their own e-mail alerts, whatever their role; nobody else's.
        const quiet = await call(`/api/workspaces/${team.id}/members/${cleo.uid}`, {
          method: 'PATCH',
          token: cleo.idToken,
          body: { alertsEmail: false },
        });
        expect(quiet.status).toBe(200);
        expect(
          ((await quiet.json()) as { member: { alertsEmail: boolean; role: string } }).member,
        ).toMatchObject({
          alertsEmail: false,
          role: 'member',
        });
        await expectError(
          await call(`/api/workspaces/${team.id}/members/${ann.uid}`, {
            method: 'PATCH',
            token: cleo.idToken,
            body: { alertsEmail: false },
          }),
          403,
          WORKSPACE_MESSAGES.ownAlertsOnly,
        );
        const changed = await call(`/api/workspaces/${team.id}/members/${cleo.uid}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { role: 'viewer' },
        });
        expect(changed.status).toBe(200);
        expect(((await changed.json()) as { member: { role: string } }).member.role).toBe('viewer');
        await expectError(
          await invite(cleo, { email: 'eve@acme.com', role: 'member' }),
          403,
          WORKSPACE_MESSAGES.roleNeeded('members.manage'),
        );
        const removed = await call(`/api/workspaces/${team.id}/members/${cleo.uid}`, {
          method: 'DELETE',
          token: ann.idToken,
        });
        expect(removed.status).toBe(204);
        await expectError(
          await api.app.request('/api/domains', {
            headers: { authorization: `Bearer ${cleo.idToken}`, [WORKSPACE_HEADER]: team.id },
          }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        await expectError(
          await call(`/api/workspaces/${team.id}/members`, { token: cleo.idToken }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        const actions = await api.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(eq(auditLog.workspaceId, team.id));
        expect(new Set(actions.map((a) => a.action))).toEqual(
          new Set([
            'workspace.created',
            'plan.changed',
            'member.invited',
            'invitation.accepted',
            'invitation.revoked',
            'member.role_changed',
            'member.removed',
          ]),
        );
      });

      it("a member who leaves, is removed or deletes their account takes the API keys they made with them; the others' go on", async () => {
        // A second team workspace of Ann's, which a Free account may not own (workspace-limits.test.ts).
        expect(await setPlan(api.db, annEmail, 'intro')).toBe(1);
        const keys = await call('/api/workspaces', {
          method: 'POST',
          token: ann.idToken,
          body: { name: 'Keys' },
        });
        const workspace = ((await keys.json()) as { workspace: WorkspaceView }).workspace;
        expect(await setPlan(api.db, annEmail, 'solo', workspace.id)).toBe(1);
        const eve = await api.signIn('eve', { email: `eve-${tag}@acme.com` });
        for (const user of [cleo, dan, eve]) {
          await api.db
            .insert(workspaceMembers)
            .values({ workspaceId: workspace.id, userId: user.uid, role: 'admin' });
        }
        const makeKey = async (user: MintedUser) => {
          const res = await api.app.request('/api/keys', {
            method: 'POST',
            headers: {
              authorization: `Bearer ${user.idToken}`,
              [WORKSPACE_HEADER]: workspace.id,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ name: `ci of ${user.uid}` }),
          });
          expect(res.status).toBe(201);
          return ((await res.json()) as { secret: string }).secret;
        };
        const [annKey, cleoKey, danKey, eveKey] = [
          await makeKey(ann),
          await makeKey(cleo),
          await makeKey(dan),
          await makeKey(eve),
        ];
        const callWithKey = (secret: string) =>
          api.app.request('/api/v1/scans', { headers: { authorization: `Bearer ${secret}` } });
        for (const secret of [annKey, cleoKey, danKey, eveKey]) {
          expect((await callWithKey(secret)).status).toBe(200);
        }

        // Cleo is removed, Dan leaves, Eve deletes her account: the secrets they saw stop working
        // with them.
        const removed = await call(`/api/workspaces/${workspace.id}/members/${cleo.uid}`, {
          method: 'DELETE',
          token: ann.idToken,
        });
        expect(removed.status).toBe(204);
        const left = await call(`/api/workspaces/${workspace.id}/members/${dan.uid}`, {
          method: 'DELETE',
          token: dan.idToken,
        });
        expect(left.status).toBe(204);
        expect((await call('/api/auth/account', { method: 'DELETE', token: eve.idToken })).status).toBe(204);
        for (const secret of [cleoKey, danKey, eveKey]) {
          const refused = await callWithKey(secret);
          expect(refused.status).toBe(401);
          expect(await refused.json()).toMatchObject({ code: 'API_KEY_REVOKED' });
        }
        expect((await callWithKey(annKey)).status).toBe(200);
        const listed = (await (
          await api.app.request('/api/keys', {
            headers: { authorization: `Bearer ${ann.idToken}`, [WORKSPACE_HEADER]: workspace.id },
          })
        ).json()) as { keys: { name: string; revokedAt: string | null }[] };
        expect(listed.keys.map((k) => [k.name, k.revokedAt === null])).toEqual(
          expect.arrayContaining([
            [`ci of ${ann.uid}`, true],
            [`ci of ${cleo.uid}`, false],
            [`ci of ${dan.uid}`, false],
            [`ci of ${eve.uid}`, false],
          ]),
        );
        // The workspace goes with every key it has: Ann's too.
        expect(
          (await call(`/api/workspaces/${workspace.id}`, { method: 'DELETE', token: ann.idToken })).status,
        ).toBe(204);
        expect((await callWithKey(annKey)).status).toBe(401);
      });

      it('regression: a forwarded link is refused to an account whose provider never verified the invited address', async () => {
        // Made in place: how many team workspaces an account may create is not this test's concern.
        const vetted = { id: crypto.randomUUID(), name: 'Vetted' };
        await api.db.insert(workspaces).values({ ...vetted, tier: 'intro' });
        await api.db
          .insert(workspaceMembers)
          .values({ workspaceId: vetted.id, userId: ann.uid, role: 'owner' });
        const invitedEmail = `ivy-${tag}@acme.com`;
        expect((await invite(ann, { email: invitedEmail, role: 'admin' }, vetted.id)).status).toBe(201);
        const token = mailedToken(invitedEmail);
        // Another account that claims the invited address, which its provider never checked.
        const claimant = await api.signIn('claimant', { email: invitedEmail, email_verified: false });
        await expectError(
          await accept(claimant, token),
          403,
          WORKSPACE_MESSAGES.invitationUnverifiedEmail,
          'EMAIL_NOT_VERIFIED',
        );
        await expectError(
          await call(`/api/workspaces/${vetted.id}/members`, { token: claimant.idToken }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        // The invitation stands for its verified owner.
        const ivy = await api.signIn('ivy', { email: invitedEmail });
        const joined = await accept(ivy, token);
        expect(joined.status).toBe(200);
        expect(((await joined.json()) as { workspace: WorkspaceView }).workspace.role).toBe('admin');
        expect(
          (await call(`/api/workspaces/${vetted.id}`, { method: 'DELETE', token: ann.idToken })).status,
        ).toBe(204);
      });

      it("an owner's export covers the team workspace too", async () => {
        const added = await api.app.request('/api/domains', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ann.idToken}`,
            [WORKSPACE_HEADER]: team.id,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ domain: 'team.acme.com' }),
        });
        expect(added.status).toBe(201);
        const exported = (await (await call('/api/auth/export', { token: ann.idToken })).json()) as {
          domains: { domain: string; workspaceId: string }[];
        };
        expect(exported.domains.map((d) => [d.domain, d.workspaceId])).toEqual([['team.acme.com', team.id]]);
        const dans = (await (await call('/api/auth/export', { token: dan.idToken })).json()) as {
          domains: unknown[];
        };
        expect(dans.domains).toEqual([]);
      });

      it('an account that is the only owner of a team others work in is handed over before it is deleted', async () => {
        await api.db
          .insert(workspaceMembers)
          .values({ workspaceId: team.id, userId: dan.uid, role: 'member' });
        await expectError(
          await call('/api/auth/account', { method: 'DELETE', token: ann.idToken }),
          409,
          WORKSPACE_MESSAGES.handOverFirst(['Acme']),
          'TEAM_WORKSPACES_OWNED',
        );
        await api.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, dan.uid));
        // Alone in it: the team workspace goes with the account.
        expect((await call('/api/auth/account', { method: 'DELETE', token: ann.idToken })).status).toBe(204);
        expect(await api.db.select().from(workspaces).where(eq(workspaces.id, team.id))).toEqual([]);
      });
    },
  );
}
