import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_LIMIT } from '../../../src/core/limits.ts';
import { apiKeys, auditLog, domains, scans, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import { API_ACCESS_MESSAGES } from '../../../src/model/api-access.ts';
import { type ApiKeyView, type CreatedApiKey, DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { WORKSPACE_MESSAGES } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `API key management on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async () => {} }, queueUp: () => true },
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let fay: MintedUser;

      const create = (token: string, body: unknown) => call('/api/keys', { method: 'POST', token, body });
      const list = async (token: string) =>
        ((await (await call('/api/keys', { token })).json()) as { keys: ApiKeyView[] }).keys;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: 'ann@acme.com' });
        bob = await api.signIn('bob', { email: 'bob@bob.com' });
        fay = await api.signIn('fay', { email: 'fay@free.com' });
        await api.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, ann.uid));
        await api.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, bob.uid));
      });

      it.each([
        ['GET', '/api/keys'],
        ['POST', '/api/keys'],
        ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000'],
      ])('%s %s without a token answers 401', async (method, path) => {
        await expectError(await call(path, { method }), 401, 'Authentication required');
      });

      it('refuses keys on a plan without API access, naming the plans that have it', async () => {
        await expectError(
          await create(fay.idToken, { name: 'ci' }),
          403,
          'The public API comes with the Intro plan and above; your Free plan has no API access.',
          'PLAN_REQUIRED',
        );
        expect(await list(fay.idToken)).toEqual([]);
      });

      it('creates a key, answers its secret once and stores only its hash', async () => {
        const res = await create(ann.idToken, { name: '  GitHub Actions  ' });
        expect(res.status).toBe(201);
        const { key, secret } = (await res.json()) as CreatedApiKey;
        expect(secret).toMatch(/^dw_[A-Za-z0-9_-]{43}$/);
        expect(key).toMatchObject({ name: 'GitHub Actions', prefix: secret.slice(0, 11), revokedAt: null });
        expect(key.lastUsedAt).toBeNull();
        const [row] = await api.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
        expect(row?.hash).toBe(createHash('sha256').update(secret).digest('hex'));
        expect(JSON.stringify(row)).not.toContain(secret);
        const listed = await (await call('/api/keys', { token: ann.idToken })).text();
        expect(listed).toContain(key.prefix);
        expect(listed).not.toContain(secret);
        const audits = await api.db.select().from(auditLog).where(eq(auditLog.userId, ann.uid));
        expect(audits.map((a) => [a.action, a.detail])).toContainEqual([
          'api_key.created',
          { id: key.id, name: 'GitHub Actions', prefix: key.prefix },
        ]);
      });

      it.each([
        [{}, 'Give the key a name'],
        [{ name: '   ' }, 'Give the key a name'],
        [{ name: 'x'.repeat(101) }, 'The name is too long: at most 100 characters'],
        [{ name: 42 }, 'Give the key a name'],
        [{ name: 'ci', scopes: ['all'] }, 'The request does not take “scopes”'],
        [{ name: 'ci\u0000' }, 'The name must not hold control characters'],
      ])('answers 400 naming the field for %j', async (body, message) => {
        await expectError(await create(ann.idToken, body), 400, message, 'VALIDATION_ERROR');
      });

      it('answers 415 for a body that is not JSON', async () => {
        const res = await api.app.request('/api/keys', {
          method: 'POST',
          headers: { authorization: `Bearer ${ann.idToken}`, 'content-type': 'text/plain' },
          body: 'name=ci',
        });
        expect(res.status).toBe(415);
      });

      it(`keeps at most ${API_KEY_LIMIT} active keys; a revoked one frees its place`, async () => {
        const active = (await list(bob.idToken)).length;
        for (let i = active; i < API_KEY_LIMIT; i++) {
          expect((await create(bob.idToken, { name: `key ${i}` })).status).toBe(201);
        }
        await expectError(
          await create(bob.idToken, { name: 'one too many' }),
          409,
          `You can have at most ${API_KEY_LIMIT} active API keys. Revoke one you no longer use.`,
          'API_KEY_LIMIT',
        );
        const [first] = await list(bob.idToken);
        expect((await call(`/api/keys/${first?.id}`, { method: 'DELETE', token: bob.idToken })).status).toBe(
          200,
        );
        expect((await create(bob.idToken, { name: 'replacement' })).status).toBe(201);
      });

      it('holds the limit when requests race for the last place', async () => {
        const racer = await api.signIn('racer', { email: 'racer@racer.com' });
        await api.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, racer.uid));
        for (let i = 1; i < API_KEY_LIMIT; i++) {
          expect((await create(racer.idToken, { name: `key ${i}` })).status).toBe(201);
        }
        const statuses = await Promise.all(
          Array.from(
            { length: 6 },
            async (_, i) => (await create(racer.idToken, { name: `race ${i}` })).status,
          ),
        );
        expect(statuses.sort()).toEqual([201, 409, 409, 409, 409, 409]);
        expect(await list(racer.idToken)).toHaveLength(API_KEY_LIMIT);
      });

      it('revokes softly, once, and audits it', async () => {
        const { key } = (await (await create(ann.idToken, { name: 'to revoke' })).json()) as CreatedApiKey;
        const res = await call(`/api/keys/${key.id}`, { method: 'DELETE', token: ann.idToken });
        expect(res.status).toBe(200);
        const revoked = ((await res.json()) as { key: ApiKeyView }).key;
        expect(revoked.revokedAt).not.toBeNull();
        const again = await call(`/api/keys/${key.id}`, { method: 'DELETE', token: ann.idToken });
        expect(((await again.json()) as { key: ApiKeyView }).key.revokedAt).toBe(revoked.revokedAt);
        expect((await list(ann.idToken)).find((k) => k.id === key.id)?.revokedAt).toBe(revoked.revokedAt);
        const audits = await api.db.select().from(auditLog).where(eq(auditLog.userId, ann.uid));
        expect(audits.filter((a) => a.action === 'api_key.revoked')).toHaveLength(1);
      });

      it("regression: a key acts with at most its maker's current role, checked on every call: a demoted admin's key no longer starts scans", async () => {
        // A team on Solo, Ann its owner and Dee an admin, made in place.
        const dee = await api.signIn('dee', { email: `dee-${tag}@acme.com` });
        const team = await insertTeam(api, { name: 'Ops', tier: 'solo' }, [
          [ann, 'owner'],
          [dee, 'admin'],
        ]);
        const deeKey = (
          (await (
            await team.as(dee, '/api/keys', { method: 'POST', body: { name: 'dee ci' } })
          ).json()) as CreatedApiKey
        ).secret;
        const domain = `ops-${tag}.com`;
        const [row] = await api.db
          .insert(domains)
          .values({
            workspaceId: team.id,
            domain,
            verificationToken: 'o'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const scanWithKey = async () => {
          const res = await call('/api/v1/scans', {
            method: 'POST',
            token: deeKey,
            body: { domain, scanType: 'dangling-subdomains' },
          });
          // Finished at once, so that the next start is not refused as one already running.
          await api.db
            .update(scans)
            .set({ status: 'completed' })
            .where(eq(scans.domainId, row?.id as string));
          return res;
        };
        const setRole = async (role: string) => {
          const res = await team.as(ann, `/api/workspaces/${team.id}/members/${dee.uid}`, {
            method: 'PATCH',
            body: { role },
          });
          expect(res.status).toBe(200);
        };

        expect((await scanWithKey()).status).toBe(202);
        // Demoted to viewer: the dashboard refuses Dee a scan, and so does the key Dee made as admin.
        await setRole('viewer');
        await expectError(
          await team.as(dee, '/scan/api/v1/scan', {
            method: 'POST',
            body: { domain, scanType: 'dangling-subdomains' },
          }),
          403,
          WORKSPACE_MESSAGES.roleNeeded('scans.start'),
        );
        await expectError(
          await scanWithKey(),
          403,
          API_ACCESS_MESSAGES.keyRoleNeeded('viewer', 'scans.start'),
          'ROLE_REQUIRED',
        );
        // What a viewer may do, the key still does.
        expect((await call('/api/v1/scans', { token: deeKey })).status).toBe(200);
        expect((await call('/api/v1/domains', { token: deeKey })).status).toBe(200);
        // Made a member again: the key follows at its next call.
        await setRole('member');
        expect((await scanWithKey()).status).toBe(202);
        // A maker no longer in the workspace, whose key was left live (removed before removal
        // revoked keys): the key is refused as revoked.
        await api.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, dee.uid));
        const refused = await call('/api/v1/domains', { token: deeKey });
        expect(refused.status).toBe(401);
        expect(await refused.json()).toMatchObject({ code: 'API_KEY_REVOKED' });
        expect(
          (await call(`/api/workspaces/${team.id}`, { method: 'DELETE', token: ann.idToken })).status,
        ).toBe(204);
      });

      it("answers 404 for another user's key and for ids that are no key", async () => {
        const [annKey] = await list(ann.idToken);
        for (const id of [annKey?.id, '00000000-0000-4000-8000-000000000000', 'nope', '-'.repeat(36)]) {
          await expectError(
            await call(`/api/keys/${id}`, { method: 'DELETE', token: bob.idToken }),
            404,
            'API key not found',
          );
        }
        expect((await list(ann.idToken)).find((k) => k.id === annKey?.id)?.revokedAt).toBeNull();
        expect((await list(bob.idToken)).some((k) => k.id === annKey?.id)).toBe(false);
      });
    },
  );
}
