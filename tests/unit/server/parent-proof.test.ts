// A subdomain of a domain the workspace has proven (TXT or delegation) is covered by that proof: no
// record of its own. Where one is still needed, the instructions name the exact host it is read at.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { txtRecordName } from '../../../src/core/domains/ownership.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { domains } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG, type DomainView } from '../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

describe('txtRecordName', () => {
  it('is @ for a registered domain and the labels before it for a subdomain', () => {
    expect(txtRecordName('example.com')).toBe('@');
    expect(txtRecordName('example.co.uk')).toBe('@');
    expect(txtRecordName('app.example.com')).toBe('app');
    expect(txtRecordName('a.b.example.co.uk')).toBe('a.b');
  });
});

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `a subdomain under a proven parent on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let dns: DnsFixture;
      const queued: string[] = [];
      beforeAll(async () => {
        dns = await startDnsServer();
      });
      afterAll(async () => {
        await dns?.close();
      });
      const api = apiSuite(backend, () => ({
        scanning: {
          queue: { enqueue: async (id) => void queued.push(id) },
          queueUp: () => true,
          resolvers: [`127.0.0.1:${dns.port}`],
        },
      }));
      const { call, tag } = api;
      const zone = `acme-${tag}.com`;
      let ann: MintedUser;
      let bob: MintedUser;
      let parent: string;

      const add = async (user: MintedUser, domain: string) => {
        const res = await call('/api/domains', { method: 'POST', token: user.idToken, body: { domain } });
        expect(res.status).toBe(201);
        return ((await res.json()) as { domain: DomainView }).domain;
      };
      const verify = async (user: MintedUser, id: string) =>
        (await (await call(`/api/domains/${id}/verify`, { method: 'POST', token: user.idToken })).json()) as {
          verified: boolean;
          error?: string;
          domain: DomainView;
        };

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
        bob = await api.signIn('bob', { email: `bob@${zone}` }, { verify: true });
        await setPlan(api.db, `ann@${zone}`, 'intro');
        await setPlan(api.db, `bob@${zone}`, 'intro');
        const [proven] = await api.db
          .insert(domains)
          .values({
            workspaceId: ann.uid,
            domain: zone,
            verificationToken: 'a'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
            proof: 'txt',
            provedBy: ann.uid,
            verifiedAt: new Date(),
          })
          .returning();
        parent = proven?.id as string;
      });

      it('a subdomain added under the proven parent is verified on its proof at once, with its first scan', async () => {
        const sub = await add(ann, `app.${zone}`);
        expect(sub).toMatchObject({ status: 'verified', proof: 'shared', scanStatus: 'pending' });
        const [row] = await api.db.select().from(domains).where(eq(domains.id, sub.id));
        expect(row?.proofSourceId).toBe(parent);
        expect(queued).toContain(sub.lastScanId);
      });

      it("another workspace's proof covers nothing: the record is asked for at the exact host", async () => {
        const sub = await add(bob, `app.${zone}`);
        expect(sub).toMatchObject({ status: 'pending', proof: null });
        expect(sub.txtRecord.name).toBe('app');
        const failed = await verify(bob, sub.id);
        expect(failed.verified).toBe(false);
        expect(failed.error).toBe(
          `app.${zone} does not exist in DNS (NXDOMAIN): add a TXT record with the value ${sub.txtRecord.value} at app.${zone} itself (name app in the DNS zone of ${zone}), or check the spelling.`,
        );
        dns.add(`app.${zone}`, { type: 'A', data: '192.0.2.1' });
        const missing = await verify(bob, sub.id);
        expect(missing.error).toBe(
          `No TXT record found at app.${zone}. Add a TXT record with the value ${sub.txtRecord.value} at app.${zone} itself (name app in the DNS zone of ${zone}).`,
        );
        dns.add(`app.${zone}`, { type: 'TXT', data: sub.txtRecord.value });
        expect((await verify(bob, sub.id)).domain).toMatchObject({ status: 'verified', proof: 'txt' });
      });

      it('a subdomain added before its parent was proven is verified on that proof by Verify, with no record', async () => {
        await api.db.update(domains).set({ status: 'pending', proof: null }).where(eq(domains.id, parent));
        const sub = await add(ann, `api.${zone}`);
        expect(sub.status).toBe('pending');
        await api.db.update(domains).set({ status: 'verified', proof: 'zone' }).where(eq(domains.id, parent));
        const done = await verify(ann, sub.id);
        expect(done).toMatchObject({ verified: true, domain: { status: 'verified', proof: 'shared' } });
      });

      it('a lookalike is no subdomain, and a paused parent covers nothing', async () => {
        const lookalike = await add(ann, `x-${zone}`);
        expect(lookalike.status).toBe('pending');
        await api.db.update(domains).set({ pausedReason: 'gone' }).where(eq(domains.id, parent));
        expect((await add(ann, `www.${zone}`)).status).toBe('pending');
        const [www] = await api.db
          .select()
          .from(domains)
          .where(and(eq(domains.workspaceId, ann.uid), eq(domains.domain, `www.${zone}`)));
        expect(www?.proof).toBeNull();
      });

      it('refuses callers without a token, and domains of another account', async () => {
        expect((await call('/api/domains', { method: 'POST', body: { domain: `b.${zone}` } })).status).toBe(
          401,
        );
        const [sub] = await api.db
          .select()
          .from(domains)
          .where(and(eq(domains.workspaceId, ann.uid), eq(domains.domain, `app.${zone}`)));
        await expectError(
          await call(`/api/domains/${sub?.id}/verify`, { method: 'POST', token: bob.idToken }),
          404,
          'Domain not found',
        );
        const bad = await call('/api/domains', {
          method: 'POST',
          token: ann.idToken,
          body: { domain: 'not a domain' },
        });
        expect(bad.status).toBe(400);
      });
    },
  );
}
