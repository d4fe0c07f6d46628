import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findingKey } from '../../../src/core/findings/key.ts';
import { auditLog, findings } from '../../../src/db/schema.ts';
import { RISK_NOTE_MAX } from '../../../src/model/constants.ts';
import type { FindingRecord } from '../../../src/model/contract.ts';
import { findingView } from '../../fixtures/finding.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const view = (subdomain: string) => findingView(subdomain);

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `findings API on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend, { now: () => new Date('2026-11-22T12:00:00Z') });
      const { call } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let openId: string;
      const at = new Date('2026-11-20T08:00:00Z');

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: 'ann@acme.com' });
        bob = await api.signIn('bob', { email: 'bob@bob.com' });
        const rows = await api.db
          .insert(findings)
          .values([
            {
              workspaceId: ann.uid,
              domain: 'acme.com',
              key: 'k1',
              subdomain: 'a.acme.com',
              latest: view('a.acme.com'),
              firstSeenAt: at,
              lastSeenAt: at,
            },
            {
              workspaceId: ann.uid,
              domain: 'acme.com',
              key: 'k2',
              subdomain: 'b.acme.com',
              latest: view('b.acme.com'),
              firstSeenAt: at,
              lastSeenAt: at,
              resolvedAt: at,
            },
            {
              workspaceId: ann.uid,
              domain: 'other.com',
              key: 'k3',
              subdomain: 'c.other.com',
              latest: view('c.other.com'),
              firstSeenAt: at,
              lastSeenAt: at,
            },
          ])
          .returning();
        openId = rows[0]?.id ?? '';
      });

      const list = async (token: string, query = '') =>
        ((await (await call(`/api/findings${query}`, { token })).json()) as { findings: FindingRecord[] })
          .findings;

      it('needs a signed-in caller', async () => {
        await expectError(await call('/api/findings'), 401, 'Authentication required');
        await expectError(
          await call(`/api/findings/${openId}`, { method: 'PATCH', body: { accepted: true } }),
          401,
          'Authentication required',
        );
      });

      it('lists the caller’s findings with their history, by domain and state', async () => {
        expect((await list(ann.idToken)).map((f) => f.finding.subdomain).sort()).toEqual([
          'a.acme.com',
          'b.acme.com',
          'c.other.com',
        ]);
        expect(
          (await list(ann.idToken, '?domain=ACME.com&state=open')).map((f) => f.finding.subdomain),
        ).toEqual(['a.acme.com']);
        const [resolved] = await list(ann.idToken, '?state=resolved');
        expect(resolved).toMatchObject({
          domain: 'acme.com',
          firstSeenAt: at.toISOString(),
          resolvedAt: at.toISOString(),
          accepted: null,
        });
        expect(await list(bob.idToken)).toEqual([]);
        // Each carries its key: dw: and a hash of the workspace and the finding's identity.
        const [open] = await list(ann.idToken, '?domain=acme.com&state=open');
        expect(open?.key).toBe(findingKey(ann.uid, view('a.acme.com')));
        expect(open?.key.length).toBeLessThanOrEqual(64);
        expect((await call('/api/findings?state=closed', { token: ann.idToken })).status).toBe(400);
      });

      it('finds one finding by its key, as its permalink names it; none in another workspace', async () => {
        const key = findingKey(ann.uid, view('b.acme.com'));
        const [one, ...more] = await list(ann.idToken, `?key=${key}`);
        expect(more).toEqual([]);
        expect(one).toMatchObject({ key, domain: 'acme.com', resolvedAt: at.toISOString() });
        expect(one?.finding.subdomain).toBe('b.acme.com');
        // The other filters still apply beside it.
        expect(await list(ann.idToken, `?key=${key}&state=open`)).toEqual([]);
        // The same finding's key in another workspace is another key: Bob finds nothing.
        expect(await list(bob.idToken, `?key=${key}`)).toEqual([]);
        expect(await list(ann.idToken, `?key=${findingKey(bob.uid, view('b.acme.com'))}`)).toEqual([]);
        for (const bad of ['k2', 'dw:', 'dw:XYZ', `dw:${'a'.repeat(62)}`])
          expect((await call(`/api/findings?key=${bad}`, { token: ann.idToken })).status, bad).toBe(400);
      });

      it('accepts a risk with a note and an expiry, and takes it back', async () => {
        const res = await call(`/api/findings/${openId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: true, note: ' Parked domain, kept on purpose ', until: '2026-12-22T12:00:00Z' },
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { finding: FindingRecord }).finding.accepted).toEqual({
          at: '2026-11-22T12:00:00.000Z',
          by: 'ann@acme.com',
          note: 'Parked domain, kept on purpose',
          until: '2026-12-22T12:00:00.000Z',
        });
        const back = await call(`/api/findings/${openId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: false },
        });
        expect(((await back.json()) as { finding: FindingRecord }).finding.accepted).toBeNull();
        // Both are in the workspace's audit log, by whose hand.
        const audits = await api.db
          .select({ action: auditLog.action, userId: auditLog.userId, workspaceId: auditLog.workspaceId })
          .from(auditLog)
          .where(eq(auditLog.workspaceId, ann.uid));
        expect(audits.filter((a) => a.action.startsWith('finding.'))).toEqual([
          { action: 'finding.accepted', userId: ann.uid, workspaceId: ann.uid },
          { action: 'finding.reopened', userId: ann.uid, workspaceId: ann.uid },
        ]);
      });

      it('takes a date alone as the end of that day (UTC), and record-changes', async () => {
        const accept = async (until: string) =>
          (
            (await (
              await call(`/api/findings/${openId}`, {
                method: 'PATCH',
                token: ann.idToken,
                body: { accepted: true, note: 'staging', until },
              })
            ).json()) as { finding: FindingRecord }
          ).finding.accepted?.until;
        expect(await accept('2026-11-30')).toBe('2026-11-30T23:59:59.999Z');
        expect(await accept('record-changes')).toBe('record-changes');
        await call(`/api/findings/${openId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: false },
        });
      });

      it('refuses an acceptance without a reason or an expiry, or with one out of range (400)', async () => {
        const refused = async (body: object) =>
          (await call(`/api/findings/${openId}`, { method: 'PATCH', token: ann.idToken, body })).status;
        expect(await refused({ accepted: true, until: '2026-12-01' })).toBe(400);
        expect(await refused({ accepted: true, note: '   ', until: '2026-12-01' })).toBe(400);
        expect(await refused({ accepted: true, note: 'why' })).toBe(400);
        expect(await refused({ accepted: true, note: 'why', until: 'soon' })).toBe(400);
        const past = await call(`/api/findings/${openId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: true, note: 'why', until: '2026-11-21T00:00:00Z' },
        });
        await expectError(past, 400, 'The expiry is in the past: choose a date ahead');
        expect(await refused({ accepted: true, note: 'why', until: '2026-11-22T12:00:30Z' })).toBe(400);
        expect(await refused({ accepted: true, note: 'why', until: '2027-11-23T12:00:00Z' })).toBe(400);
        expect(await refused({ accepted: true, note: 'why', until: '2027-11-22T12:00:00Z' })).toBe(200);
        expect((await list(ann.idToken, '?state=accepted')).map((f) => f.id)).toEqual([openId]);
        await call(`/api/findings/${openId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: false },
        });
      });

      it("answers 404 for another user's finding and 400 for bad input", async () => {
        await expectError(
          await call(`/api/findings/${openId}`, {
            method: 'PATCH',
            token: bob.idToken,
            body: { accepted: true, note: 'n', until: '2026-12-01' },
          }),
          404,
          'Finding not found',
        );
        await expectError(
          await call('/api/findings/nope', {
            method: 'PATCH',
            token: ann.idToken,
            body: { accepted: true, note: 'n', until: '2026-12-01' },
          }),
          404,
          'Finding not found',
        );
        expect(
          (
            await call(`/api/findings/${openId}`, {
              method: 'PATCH',
              token: ann.idToken,
              body: { accepted: 'yes' },
            })
          ).status,
        ).toBe(400);
        expect(
          (
            await call(`/api/findings/${openId}`, {
              method: 'PATCH',
              token: ann.idToken,
              body: { accepted: true, note: 'a\u0000b', until: '2026-12-01' },
            })
          ).status,
        ).toBe(400);
        expect(
          (
            await call(`/api/findings/${openId}`, {
              method: 'PATCH',
              token: ann.idToken,
              body: { accepted: true, note: 'x'.repeat(RISK_NOTE_MAX + 1), until: '2026-12-01' },
            })
          ).status,
        ).toBe(400);
      });
    },
  );
}
