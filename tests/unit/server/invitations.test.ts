import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { workspaceInvitations } from '../../../src/db/schema.ts';
import { fetchInvitationPreview, invitationToken } from '../../../src/lib/auth/invitation-preview.ts';
import { type InvitationPreview, WORKSPACE_MESSAGES } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

const NOW = new Date('2026-11-29T02:00:00Z');
const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `an invitation's public preview on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend, {
        now: () => NOW,
        limits: { invitationPreview: { name: 'invitation-preview', limit: 6, windowSeconds: 60 } },
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let team: Awaited<ReturnType<typeof insertTeam>>;
      const tokens = { open: newToken(), expired: newToken(), used: newToken(), nameless: newToken() };

      /** Asked signed out, from `address` (the test app trusts the proxy's header). */
      const preview = (token: unknown, address = '198.51.100.7') =>
        api.app.request('/api/invitations/preview', {
          method: 'POST',
          body: JSON.stringify({ token }),
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        });

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann-${tag}@acme.com`, name: 'Ann Owner' });
        team = await insertTeam(api, { name: 'Acme Security', tier: 'intro' }, [[ann, 'owner']]);
        const invitation = (
          token: string,
          extra: Partial<typeof workspaceInvitations.$inferInsert> = {},
        ) => ({
          workspaceId: team.id,
          email: `dan-${tag}@acme.com`,
          role: 'viewer',
          tokenHash: hash(token),
          invitedBy: ann.uid,
          expiresAt: new Date(NOW.getTime() + 86_400_000),
          ...extra,
        });
        await api.db
          .insert(workspaceInvitations)
          .values([
            invitation(tokens.open),
            invitation(tokens.expired, { expiresAt: new Date(NOW.getTime() - 1000) }),
            invitation(tokens.used, { acceptedAt: NOW }),
            invitation(tokens.nameless, { invitedBy: null }),
          ]);
      });

      it('tells whoever holds the link who invited them to which workspace, and nothing else, signed out', async () => {
        const res = await preview(tokens.open);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { invitation: InvitationPreview };
        expect(body).toEqual({ invitation: { inviter: 'Ann Owner', workspace: 'Acme Security' } });
        expect(JSON.stringify(body)).not.toMatch(/dan-|viewer|@/);
        expect(res.headers.get('x-ratelimit-limit')).toBe('6');
        expect(WORKSPACE_MESSAGES.invitationPreview(body.invitation)).toBe(
          'Ann Owner invited you to join Acme Security on DangleWatch. Sign in with the address the invitation was sent to, and you join it at once.',
        );
        const nameless = (await (await preview(tokens.nameless)).json()) as { invitation: InvitationPreview };
        expect(nameless.invitation.inviter).toBeNull();
      });

      it.each([
        ['an unknown token', newToken()],
        ['an expired invitation', tokens.expired],
        ['an accepted invitation', tokens.used],
      ])('answers 404 for %s, saying nothing of why', async (_, token) => {
        await expectError(
          await preview(token, '198.51.100.8'),
          404,
          WORKSPACE_MESSAGES.invitationNotFound,
          'INVITATION_NOT_FOUND',
        );
      });

      it('answers 400 for a body without a token', async () => {
        const res = await preview('', '198.51.100.9');
        expect(res.status).toBe(400);
      });

      it('is limited per client address like the other public routes: 429 past the limit', async () => {
        for (let i = 0; i < 6; i++) expect((await preview(tokens.open, '198.51.100.10')).status).toBe(200);
        const over = await preview(tokens.open, '198.51.100.10');
        await expectError(over, 429, 'Rate limit exceeded', 'RATE_LIMITED');
        expect(over.headers.get('retry-after')).toBeTruthy();
        // Another address keeps its own budget.
        expect((await preview(tokens.open, '198.51.100.11')).status).toBe(200);
      });

      it('gives the sign-in page the preview of the link it returns to, and nothing for another path or a bad token', async () => {
        const viaApp = ((url: string, init?: RequestInit) =>
          api.app.request(url, {
            ...init,
            headers: { ...init?.headers, 'x-forwarded-for': '198.51.100.12' },
          })) as typeof fetch;
        const path = `/invitations/accept?token=${tokens.open}`;
        expect(invitationToken(path)).toBe(tokens.open);
        expect(invitationToken('/dashboard?token=x')).toBeNull();
        expect(invitationToken('/invitations/accept')).toBeNull();
        expect(await fetchInvitationPreview(tokens.open, viaApp)).toEqual({
          inviter: 'Ann Owner',
          workspace: 'Acme Security',
        });
        expect(await fetchInvitationPreview(tokens.used, viaApp)).toBeNull();
      });

      it('still needs a signed-in caller to accept (401)', async () => {
        await expectError(
          await call('/api/invitations/accept', { method: 'POST', body: { token: tokens.open } }),
          401,
          'Authentication required',
        );
      });
    },
  );
}
