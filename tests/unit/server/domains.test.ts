import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, scans, workspaces } from '../../../src/db/schema.ts';
import type { DomainListResponse, DomainView } from '../../../src/model/contract.ts';
import { DOMAIN_MESSAGES } from '../../../src/model/domain-input.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `domains API on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let dns: DnsFixture;
      const queued: string[] = [];
      beforeAll(async () => {
        dns = await startDnsServer();
      });
      const api = apiSuite(backend, () => ({
        scanning: {
          queue: { enqueue: async (id) => void queued.push(id) },
          queueUp: () => true,
          resolvers: [`127.0.0.1:${dns.port}`],
        },
      }));
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let gmail: MintedUser;
      const annDomain = `ann-${tag}.com`;

      beforeAll(async () => {
        ann = await api.mint('ann', { email: `ann@${annDomain}`, name: 'Ann' });
        bob = await api.mint('bob', { email: `bob@bob-${tag}.com`, name: 'Bob' });
        gmail = await api.mint('gm', { email: `someone-${tag}@gmail.com` });
      });
      afterAll(async () => {
        await dns?.close();
      });

      const add = (token: string, body: unknown) => call('/api/domains', { method: 'POST', token, body });

      it.each([
        ['GET', '/api/domains'],
        ['POST', '/api/domains'],
        ['POST', '/api/domains/00000000-0000-4000-8000-000000000000/verify'],
        ['PATCH', '/api/domains/00000000-0000-4000-8000-000000000000'],
        ['DELETE', '/api/domains/00000000-0000-4000-8000-000000000000'],
      ])('%s %s without a token answers 401', async (method, path) => {
        await expectError(await call(path, { method }), 401, 'Authentication required');
      });

      it('adds a pending domain with a TXT record of its own', async () => {
        const res = await add(ann.idToken, { domain: `  WWW.${annDomain.toUpperCase()} ` });
        expect(res.status).toBe(201);
        const { domain } = (await res.json()) as { domain: DomainView };
        expect(domain).toMatchObject({
          domain: `www.${annDomain}`,
          status: 'pending',
          verificationMethod: 'dns',
          isActive: false,
          scanConfig: {
            skipDiscovery: false,
            useCertificateTransparency: true,
            useMultiStageValidation: true,
            scanFrequency: 'daily',
          },
          // Read at the exact host: www, in the zone of the registered domain, not @.
          txtRecord: { type: 'TXT', name: 'www' },
        });
        expect(domain.verificationToken.length).toBeGreaterThanOrEqual(16);
        expect(domain.txtRecord.value).toBe(`danglewatch-verify=${domain.verificationToken}`);
        await call(`/api/domains/${domain.id}`, { method: 'DELETE', token: ann.idToken });
      });

      it.each([
        ['', DOMAIN_MESSAGES.required],
        ['not a domain', DOMAIN_MESSAGES.invalid],
        ['-bad.com', DOMAIN_MESSAGES.invalid],
        [`${'a'.repeat(64)}.com`, DOMAIN_MESSAGES.invalid],
        [`${'abcdefghi.'.repeat(26)}com`, DOMAIN_MESSAGES.invalid],
        ['127.0.0.1', DOMAIN_MESSAGES.invalid],
        ['127.1', DOMAIN_MESSAGES.invalid],
        ['0x7f000001', DOMAIN_MESSAGES.invalid],
        ['0177.0.0.1', DOMAIN_MESSAGES.invalid],
        ['2130706433', DOMAIN_MESSAGES.invalid],
        ['::1', DOMAIN_MESSAGES.invalid],
        ['[::1]', DOMAIN_MESSAGES.invalid],
        ['localhost', DOMAIN_MESSAGES.invalid],
        ['app.localhost', DOMAIN_MESSAGES.reserved],
        ['printer.local', DOMAIN_MESSAGES.reserved],
        ['db.internal', DOMAIN_MESSAGES.reserved],
        ['site.test', DOMAIN_MESSAGES.reserved],
        ['x.invalid', DOMAIN_MESSAGES.reserved],
        ['x.example', DOMAIN_MESSAGES.reserved],
        ['hidden.onion', DOMAIN_MESSAGES.reserved],
        ['1.0.0.127.in-addr.arpa', DOMAIN_MESSAGES.reserved],
        ['router.home.arpa', DOMAIN_MESSAGES.reserved],
      ])('refuses %j with 400 %j', async (domain, message) => {
        const body = await expectError(await add(ann.idToken, { domain }), 400, message, 'VALIDATION_ERROR');
        expect(body.details?.[0]).toMatchObject({ path: 'domain', message });
      });

      it('refuses malformed bodies with 400, never 500', async () => {
        expect((await add(ann.idToken, { domain: 42 })).status).toBe(400);
        expect((await add(ann.idToken, { domain: annDomain, extra: true })).status).toBe(400);
        expect(
          (await add(ann.idToken, { domain: annDomain, scanConfig: { scanFrequency: 'hourly' } })).status,
        ).toBe(400);
        const raw = await api.app.request('/api/domains', {
          method: 'POST',
          headers: { authorization: `Bearer ${ann.idToken}`, 'content-type': 'application/json' },
          body: '{"domain":',
        });
        expect(raw.status).toBe(400);
      });

      it('keeps the free tier to the e-mail domain and its subdomains', async () => {
        await expectError(
          await add(ann.idToken, { domain: 'someone-else.com' }),
          400,
          DOMAIN_MESSAGES.freeTier(annDomain),
        );
        await expectError(
          await add(ann.idToken, { domain: `evil${annDomain}` }),
          400,
          DOMAIN_MESSAGES.freeTier(annDomain),
        );
        await expectError(
          await add(gmail.idToken, { domain: 'gmail.com' }),
          400,
          DOMAIN_MESSAGES.freeTierNoEmailDomain,
        );
      });

      it("regression: an address the sign-in provider never verified does not make its domain the user's", async () => {
        const claimed = await api.mint('unverified', {
          email: `ceo@victim-${tag}.com`,
          email_verified: false,
        });
        await expectError(
          await add(claimed.idToken, { domain: `victim-${tag}.com` }),
          400,
          DOMAIN_MESSAGES.freeTierUnverifiedEmail,
        );
      });

      let annId: string;

      it('counts the plan limit from the catalogue: the free plan holds one domain', async () => {
        const res = await add(ann.idToken, { domain: annDomain });
        expect(res.status).toBe(201);
        annId = ((await res.json()) as { domain: DomainView }).domain.id;
        await expectError(
          await add(ann.idToken, { domain: `app.${annDomain}` }),
          409,
          DOMAIN_MESSAGES.limit(1),
          'DOMAIN_LIMIT',
        );
        const list = (await (
          await call('/api/domains', { token: ann.idToken })
        ).json()) as DomainListResponse;
        expect(list.domains.map((d) => d.domain)).toEqual([annDomain]);
        expect(list.quota).toMatchObject({
          tier: 'free',
          currentDomains: 1,
          maxDomains: 1,
          maxScansPerDay: 1,
          maxScansPerMonth: 30,
        });
        expect(list.quota.resetDate).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
      });

      it('answers 409 for a domain already in the list', async () => {
        await api.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, ann.uid));
        try {
          await expectError(
            await add(ann.idToken, { domain: annDomain }),
            409,
            `${annDomain} is already in your list`,
          );
        } finally {
          await api.db.update(workspaces).set({ tier: 'free' }).where(eq(workspaces.id, ann.uid));
        }
      });

      it("answers 404 for another user's domain, for every call", async () => {
        for (const [method, path] of [
          ['POST', `/api/domains/${annId}/verify`],
          ['PATCH', `/api/domains/${annId}`],
          ['DELETE', `/api/domains/${annId}`],
        ] as const) {
          const body =
            method === 'PATCH'
              ? {
                  scanConfig: {
                    skipDiscovery: true,
                    useCertificateTransparency: true,
                    useMultiStageValidation: true,
                    scanFrequency: 'weekly',
                  },
                }
              : undefined;
          await expectError(await call(path, { method, token: bob.idToken, body }), 404, 'Domain not found');
        }
        await expectError(
          await call('/api/domains/not-a-uuid/verify', { method: 'POST', token: ann.idToken }),
          404,
          'Domain not found',
        );
        const bobs = (await (
          await call('/api/domains', { token: bob.idToken })
        ).json()) as DomainListResponse;
        expect(bobs.domains).toEqual([]);
      });

      it('verification fails with the reason while the TXT record is missing, and succeeds once it is published', async () => {
        const first = await call(`/api/domains/${annId}/verify`, { method: 'POST', token: ann.idToken });
        const failed = (await first.json()) as { verified: boolean; error: string; domain: DomainView };
        expect(failed.verified).toBe(false);
        expect(failed.error).toContain(`${annDomain} does not exist in DNS`);
        expect(failed.domain.status).toBe('failed');

        dns.add(annDomain, { type: 'TXT', data: 'v=spf1 -all' });
        const second = (await (
          await call(`/api/domains/${annId}/verify`, { method: 'POST', token: ann.idToken })
        ).json()) as {
          verified: boolean;
          error: string;
        };
        expect(second.verified).toBe(false);
        expect(second.error).toContain('do not include danglewatch-verify=');
        expect(second.error).toContain('v=spf1 -all');

        const [row] = await api.db.select().from(domains).where(eq(domains.id, annId));
        dns.add(annDomain, { type: 'TXT', data: `danglewatch-verify=${row?.verificationToken}` });
        const before = queued.length;
        const ok = (await (
          await call(`/api/domains/${annId}/verify`, { method: 'POST', token: ann.idToken })
        ).json()) as {
          verified: boolean;
          domain: DomainView;
        };
        expect(ok.verified).toBe(true);
        expect(ok.domain).toMatchObject({
          status: 'verified',
          isActive: true,
          error: null,
          scanStatus: 'pending',
        });
        expect(ok.domain.nextScanAt).not.toBeNull();
        // Monitoring starts with a first scan, which does not count against the daily quota.
        expect(queued.length).toBe(before + 1);
        const list = (await (
          await call('/api/domains', { token: ann.idToken })
        ).json()) as DomainListResponse;
        expect(list.quota.scansUsedToday).toBe(0);
      });

      it("each user proves a domain with their own token: another user's record does not verify it", async () => {
        await api.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, bob.uid));
        const res = await add(bob.idToken, { domain: annDomain });
        expect(res.status).toBe(201);
        const { domain } = (await res.json()) as { domain: DomainView };
        const [annRow] = await api.db.select().from(domains).where(eq(domains.id, annId));
        expect(domain.verificationToken).not.toBe(annRow?.verificationToken);
        const verify = (await (
          await call(`/api/domains/${domain.id}/verify`, { method: 'POST', token: bob.idToken })
        ).json()) as {
          verified: boolean;
        };
        expect(verify.verified).toBe(false);
        expect(
          (await call(`/api/domains/${domain.id}`, { method: 'DELETE', token: bob.idToken })).status,
        ).toBe(204);
      });

      it('PATCH changes the scan configuration; manual frequency clears the next scan', async () => {
        const scanConfig = {
          skipDiscovery: true,
          useCertificateTransparency: false,
          useMultiStageValidation: true,
          scanFrequency: 'manual',
        };
        const res = await call(`/api/domains/${annId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { scanConfig },
        });
        expect(res.status).toBe(200);
        const { domain } = (await res.json()) as { domain: DomainView };
        expect(domain.scanConfig).toEqual(scanConfig);
        expect(domain.nextScanAt).toBeNull();
        expect(
          (
            await call(`/api/domains/${annId}`, {
              method: 'PATCH',
              token: ann.idToken,
              body: { scanConfig: { skipDiscovery: 'yes' } },
            })
          ).status,
        ).toBe(400);
      });

      it('PATCH changes the alerts alone: e-mail and the least status that alerts', async () => {
        expect(
          (
            ((await (await call('/api/domains', { token: ann.idToken })).json()) as DomainListResponse)
              .domains[0] as DomainView
          ).alerts,
        ).toEqual({ email: true, webhooks: true, minStatus: 'review' });
        const res = await call(`/api/domains/${annId}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { alerts: { email: false, webhooks: false, minStatus: 'claimable' } },
        });
        expect(res.status).toBe(200);
        const { domain } = (await res.json()) as { domain: DomainView };
        expect(domain.alerts).toEqual({ email: false, webhooks: false, minStatus: 'claimable' });
        expect(domain.scanConfig.scanFrequency).toBe('manual');
        for (const body of [
          {},
          { alerts: { email: true, minStatus: 'urgent' } },
          { alerts: { email: 'no', minStatus: 'review' } },
        ]) {
          expect(
            (await call(`/api/domains/${annId}`, { method: 'PATCH', token: ann.idToken, body })).status,
          ).toBe(400);
        }
      });

      it('DELETE removes the domain and its schedule; its scans stay until retention', async () => {
        const [scan] = await api.db.select().from(scans).where(eq(scans.domainId, annId));
        expect((await call(`/api/domains/${annId}`, { method: 'DELETE', token: ann.idToken })).status).toBe(
          204,
        );
        const list = (await (
          await call('/api/domains', { token: ann.idToken })
        ).json()) as DomainListResponse;
        expect(list.domains).toEqual([]);
        const [kept] = await api.db
          .select()
          .from(scans)
          .where(eq(scans.id, scan?.id ?? ''));
        expect(kept?.domainId).toBeNull();
        await expectError(
          await call(`/api/domains/${annId}`, { method: 'DELETE', token: ann.idToken }),
          404,
          'Domain not found',
        );
      });
    },
  );
}
