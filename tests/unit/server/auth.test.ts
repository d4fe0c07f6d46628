import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import { demoFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { type AuthUserResponse, DISPLAY_NAME_MAX } from '../../../src/model/profile.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly, pgliteBackend } from '../../helpers/databases.ts';
import { disableUser, rewriteToken, TEST_PROJECT_ID } from '../../helpers/emulator.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `auth API on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let clockOffset = 0;
      const api = apiSuite(backend, () => ({
        auth: {
          publicConfig: { firebase: demoFirebaseConfig(), emulatorUrl: `http://${api.emulatorHost}` },
          now: () => Date.now() + clockOffset,
        },
      }));
      const { call } = api;
      let ann: { idToken: string; uid: string };
      let octo: { idToken: string; uid: string };

      beforeAll(async () => {
        ann = await api.mint('ann', {
          email: 'ann@example.com',
          name: 'Ann Lee',
          picture: 'https://lh3.googleusercontent.com/a/ann.png',
        });
        octo = await api.mint('octo', { email: 'octo@example.org', name: 'The Octocat' }, 'github.com');
      });

      it('GET /auth/config hands out the web configuration', async () => {
        const res = await call('/auth/config');
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          firebase: { projectId: TEST_PROJECT_ID },
          emulatorUrl: `http://${api.emulatorHost}`,
        });
      });

      it.each([
        ['POST', '/auth/verify'],
        ['GET', '/auth/user'],
        ['PATCH', '/auth/settings'],
        ['POST', '/auth/domain'],
        ['PATCH', '/api/auth/user/profile'],
      ])('%s %s without a token answers 401', async (method, path) => {
        await expectError(await call(path, { method }), 401, 'Authentication required', 'AUTH_REQUIRED');
      });

      it('answers 401 for a malformed token', async () => {
        await expectError(
          await call('/auth/user', { token: 'not.a.token' }),
          401,
          'Authentication required',
          'INVALID_TOKEN',
        );
      });

      it("answers 401 for another project's token", async () => {
        const foreign = rewriteToken(ann.idToken, (claims) => {
          claims.aud = 'demo-other-project';
          claims.iss = 'https://securetoken.google.com/demo-other-project';
        });
        await expectError(
          await call('/auth/user', { token: foreign }),
          401,
          'Authentication required',
          'INVALID_TOKEN',
        );
      });

      it('POST /auth/verify creates the user from a Google token', async () => {
        const res = await call('/auth/verify', { method: 'POST', token: ann.idToken });
        expect(res.status).toBe(200);
        const body = (await res.json()) as AuthUserResponse;
        expect(body.user).toMatchObject({
          uid: ann.uid,
          displayName: 'Ann Lee',
          email: 'ann@example.com',
          photoURL: 'https://lh3.googleusercontent.com/a/ann.png',
          provider: 'google',
          tier: 'free',
        });
        expect(Date.parse(body.user.createdAt)).toBeGreaterThan(Date.now() - 60_000);
        expect(Math.abs(Date.parse(body.user.lastLoginAt) - Date.now())).toBeLessThan(60_000);
        expect(body.quota).toMatchObject({ daily: 1, used: 0, remaining: 1, maxDomains: 1 });
      });

      it('POST /auth/verify records a GitHub sign-in as github', async () => {
        const res = await call('/auth/verify', { method: 'POST', token: octo.idToken });
        expect(res.status).toBe(200);
        expect(((await res.json()) as AuthUserResponse).user.provider).toBe('github');
      });

      it("GET /auth/user reports the real quota: today's scans count, yesterday's do not", async () => {
        await call('/auth/verify', { method: 'POST', token: octo.idToken });
        await api.db.execute(
          sql`insert into scans (workspace_id, domain, status, created_at) values
            (${octo.uid}, 'example.org', 'completed', now() - interval '2 days')`,
        );
        let body = (await (await call('/auth/user', { token: octo.idToken })).json()) as AuthUserResponse;
        expect(body.quota).toMatchObject({ daily: 1, used: 0, remaining: 1 });
        await api.db.execute(
          sql`insert into scans (workspace_id, domain, status) values (${octo.uid}, 'example.org', 'running')`,
        );
        body = (await (await call('/auth/user', { token: octo.idToken })).json()) as AuthUserResponse;
        expect(body).toMatchObject({ domain: null, quota: { daily: 1, used: 1, remaining: 0 } });
        expect(Date.parse(body.quota.resetsAt)).toBeGreaterThan(Date.now());
      });

      it('a paid tier gets its plan figures', async () => {
        await api.db.execute(sql`update workspaces set tier = 'intro' where id = ${octo.uid}`);
        const body = (await (await call('/auth/user', { token: octo.idToken })).json()) as AuthUserResponse;
        expect(body.quota).toMatchObject({ daily: 25, used: 1, remaining: 24, maxDomains: 25 });
        await api.db.execute(sql`update workspaces set tier = 'free' where id = ${octo.uid}`);
      });

      it('answers 401 SESSION_EXPIRED once the sign-in is more than 24 hours old', async () => {
        clockOffset = DAY_MS + 1000;
        try {
          await expectError(
            await call('/auth/user', { token: ann.idToken }),
            401,
            'Authentication required',
            'SESSION_EXPIRED',
          );
        } finally {
          clockOffset = 0;
        }
        expect((await call('/auth/user', { token: ann.idToken })).status).toBe(200);
      });

      it('POST /auth/domain sets the primary domain that GET /auth/user reports', async () => {
        const res = await call('/auth/domain', {
          method: 'POST',
          token: ann.idToken,
          body: { domain: ' Acme.IO ' },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ domain: 'acme.io' });
        const user = (await (await call('/auth/user', { token: ann.idToken })).json()) as AuthUserResponse;
        expect(user.domain).toBe('acme.io');
        await expectError(
          await call('/auth/domain', {
            method: 'POST',
            token: ann.idToken,
            body: { domain: 'not a domain' },
          }),
          400,
          'Invalid domain format: not a domain',
          'VALIDATION_ERROR',
        );
      });

      it('PATCH /auth/settings merges settings', async () => {
        let res = await call('/auth/settings', {
          method: 'PATCH',
          token: ann.idToken,
          body: { settings: { emailAlerts: true } },
        });
        expect(res.status).toBe(200);
        res = await call('/auth/settings', {
          method: 'PATCH',
          token: ann.idToken,
          body: { settings: { digest: 'weekly' } },
        });
        expect(await res.json()).toEqual({ settings: { emailAlerts: true, digest: 'weekly' } });
      });

      it.each([
        [{ settings: 3 }, 'settings must be an object'],
        [{ settings: { emailAlerts: 'yes' } }, 'The email alerts must be true or false'],
        [{ settings: { digest: 'hourly' } }, 'The digest must be one of: off, daily, weekly'],
        [{ settings: { tier: 'pro-solo' } }, 'The settings object does not take “tier”'],
        [{ settings: {}, other: 1 }, 'The request does not take “other”'],
      ])('PATCH /auth/settings answers 400 naming the key for %j', async (body, message) => {
        const res = await call('/auth/settings', { method: 'PATCH', token: ann.idToken, body });
        await expectError(res, 400, message, 'VALIDATION_ERROR');
      });

      it('PATCH /api/auth/user/profile renames, and a later sign-in keeps the new name', async () => {
        const res = await call('/api/auth/user/profile', {
          method: 'PATCH',
          token: ann.idToken,
          body: { displayName: '  Ann L.  ' },
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { user: { displayName: string } }).user.displayName).toBe('Ann L.');
        const again = (await (
          await call('/auth/verify', { method: 'POST', token: ann.idToken })
        ).json()) as AuthUserResponse;
        expect(again.user.displayName).toBe('Ann L.');
      });

      it.each([
        ['an empty name', { displayName: '' }],
        ['a blank name', { displayName: '   ' }],
        ['no name', {}],
        ['a number', { displayName: 42 }],
      ])(
        "PATCH /api/auth/user/profile answers 400 'Display name cannot be empty' for %s",
        async (_, body) => {
          await expectError(
            await call('/api/auth/user/profile', { method: 'PATCH', token: ann.idToken, body }),
            400,
            'Display name cannot be empty',
            'VALIDATION_ERROR',
          );
        },
      );

      it('takes a display name at the limit and refuses one longer, keeping the stored one', async () => {
        const patch = (displayName: string) =>
          call('/api/auth/user/profile', { method: 'PATCH', token: ann.idToken, body: { displayName } });
        const longest = 'a'.repeat(DISPLAY_NAME_MAX);
        expect((await patch(longest)).status).toBe(200);
        await expectError(
          await patch(`${longest}b`),
          400,
          `Display name must be at most ${DISPLAY_NAME_MAX} characters`,
          'VALIDATION_ERROR',
        );
        const stored = (await (await call('/auth/user', { token: ann.idToken })).json()) as AuthUserResponse;
        expect(stored.user.displayName).toBe(longest);
      });

      it("answers 403 'Access denied' for a disabled account", async () => {
        const blocked = await api.mint('blocked', {
          email: `blocked-${backend.name.toLowerCase()}@example.com`,
          name: 'Blocked User',
        });
        expect((await call('/auth/user', { token: blocked.idToken })).status).toBe(200);
        await disableUser(api.emulatorHost, blocked.uid);
        await expectError(
          await call('/auth/user', { token: blocked.idToken }),
          403,
          'Access denied',
          'ACCESS_DENIED',
        );
      });

      it('stores users with both providers', async () => {
        const rows = await queryRows<{ provider: string }>(
          api.db,
          sql`select provider from users where id in (${ann.uid}, ${octo.uid}) order by provider`,
        );
        expect(rows.map((r) => r.provider)).toEqual(['github', 'google']);
      });
    },
  );
}

describe('auth API without Firebase configured', () => {
  it('answers 503 rather than letting anyone in', async () => {
    const database = await pgliteBackend?.open();
    if (!database) throw new Error('no PGlite');
    try {
      const res = await testApp(database).request('/auth/user', { headers: { authorization: 'Bearer x' } });
      expect(res.status).toBe(503);
    } finally {
      await database.close();
    }
  });
});
