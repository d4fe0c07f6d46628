import Ajv2020 from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  auditLog,
  domains,
  findings,
  rateLimits,
  scans,
  workspaces,
} from '../../../src/db/schema.ts';
import { type CreatedApiKey, DEFAULT_SCAN_CONFIG, type FindingView } from '../../../src/model/contract.ts';
import { publicApiAnswers } from '../../../src/server/openapi.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const FINDING: FindingView = {
  subdomain: 'old.example-api.com',
  recordType: 'CNAME',
  target: 'gone-app.herokuapp.com',
  service: 'Heroku',
  status: 'claimable',
  risk: 'high',
  evidence: ['old CNAME gone-app.herokuapp.com'],
  explanation: 'x',
  proofOfConcept: 'y',
  remediation: 'z',
};

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `public API (/api/v1, API keys) on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async (id) => void queued.push(id) }, queueUp: () => true },
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let annKey: string;
      let bobKey: string;
      let annScanId: string;
      let bobScanId: string;
      const annDomain = `ann-${tag}.com`;

      const newKey = async (user: MintedUser, name = 'ci') => {
        const res = await call('/api/keys', { method: 'POST', token: user.idToken, body: { name } });
        expect(res.status).toBe(201);
        return ((await res.json()) as CreatedApiKey).secret;
      };
      const setTier = (user: MintedUser, tier: string) =>
        api.db.update(workspaces).set({ tier }).where(eq(workspaces.id, user.uid));

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${annDomain}` });
        bob = await api.signIn('bob', { email: `bob@bob-${tag}.com` });
        for (const user of [ann, bob]) await setTier(user, 'solo');
        annKey = await newKey(ann);
        bobKey = await newKey(bob);
        const [domain] = await api.db
          .insert(domains)
          .values({
            workspaceId: ann.uid,
            domain: annDomain,
            verificationToken: 'a'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const at = new Date('2026-11-20T08:00:00Z');
        const [annScan] = await api.db
          .insert(scans)
          .values({
            workspaceId: ann.uid,
            domainId: domain?.id,
            domain: annDomain,
            trigger: 'manual',
            status: 'completed',
            createdAt: at,
            completedAt: at,
            findings: [FINDING],
            subdomains: ['www', 'old'],
            vulnerabilitiesFound: 1,
          })
          .returning();
        const [bobScan] = await api.db
          .insert(scans)
          .values({ workspaceId: bob.uid, domain: `bob-${tag}.com`, trigger: 'manual', createdAt: at })
          .returning();
        annScanId = annScan?.id ?? '';
        bobScanId = bobScan?.id ?? '';
        await api.db.insert(findings).values({
          workspaceId: ann.uid,
          domain: annDomain,
          key: 'k1',
          subdomain: FINDING.subdomain,
          latest: FINDING,
          firstSeenAt: at,
          lastSeenAt: at,
        });
      });

      it.each([
        ['no Authorization header', undefined, 'API_KEY_REQUIRED'],
        ['a Firebase ID token', 'firebase', 'INVALID_API_KEY'],
        ['a malformed key', 'dw_short', 'INVALID_API_KEY'],
        ['an unknown key', `dw_${'A'.repeat(43)}`, 'INVALID_API_KEY'],
      ])('answers 401 for %s', async (_, key, code) => {
        const token = key === 'firebase' ? ann.idToken : key;
        const res = await call('/api/v1/domains', { token });
        await expectError(res, 401, 'Authentication required', code);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="DangleWatch API"');
      });

      it('answers 401 for a revoked key, at once', async () => {
        const key = await newKey(ann, 'short-lived');
        expect((await call('/api/v1/domains', { token: key })).status).toBe(200);
        const [row] = await api.db.select().from(apiKeys).where(eq(apiKeys.name, 'short-lived'));
        await call(`/api/keys/${row?.id}`, { method: 'DELETE', token: ann.idToken });
        await expectError(
          await call('/api/v1/domains', { token: key }),
          401,
          'Authentication required',
          'API_KEY_REVOKED',
        );
      });

      it("answers 403 when the key owner's plan no longer has API access, 200 again after an upgrade", async () => {
        await setTier(bob, 'free');
        await expectError(
          await call('/api/v1/scans', { token: bobKey }),
          403,
          'The public API comes with the Intro plan and above; your Free plan has no API access.',
          'PLAN_REQUIRED',
        );
        await setTier(bob, 'pro-solo');
        const res = await call('/api/v1/scans', { token: bobKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
      });

      it('answers the same JSON as the dashboard calls, in the documented shapes', async () => {
        const pairs: [string, string, keyof typeof publicApiAnswers][] = [
          ['/api/v1/domains', '/api/domains', 'DomainList'],
          ['/api/v1/scans', '/scan/api/v1/scans', 'ScanList'],
          [
            '/api/v1/scans?status=completed&limit=5&q=ann',
            '/scan/api/v1/scans?status=completed&limit=5&q=ann',
            'ScanList',
          ],
          [`/api/v1/scans/${annScanId}`, `/scan/api/v1/scan/${annScanId}`, 'Scan'],
          ['/api/v1/findings?state=open', '/api/findings?state=open', 'FindingList'],
        ];
        for (const [keyed, dashboard, answer] of pairs) {
          const viaKey = await call(keyed, { token: annKey });
          expect(viaKey.status, keyed).toBe(200);
          const body = await viaKey.json();
          expect(body, keyed).toEqual(await (await call(dashboard, { token: ann.idToken })).json());
          publicApiAnswers[answer].parse(body);
        }
        const scan = publicApiAnswers.Scan.parse(
          await (await call(`/api/v1/scans/${annScanId}`, { token: annKey })).json(),
        );
        // The workspace's scans carry each finding's key.
        expect(scan.findings).toEqual([{ ...FINDING, key: expect.stringMatching(/^dw:[0-9a-f]{40}$/) }]);
        expect(scan.subdomains).toEqual(['www', 'old']);
      });

      it('starts a scan of a verified domain', async () => {
        const res = await call('/api/v1/scans', {
          method: 'POST',
          token: annKey,
          body: {
            domain: annDomain.toUpperCase(),
            scanType: 'dangling-subdomains',
            use_certificate_transparency: false,
          },
        });
        expect(res.status).toBe(202);
        const started = publicApiAnswers.ScanStarted.parse(await res.json());
        expect(started.status).toBe('pending');
        expect(queued).toContain(started.scan_id);
        const [row] = await api.db.select().from(scans).where(eq(scans.id, started.scan_id));
        expect(row).toMatchObject({ workspaceId: ann.uid, trigger: 'manual' });
        expect(row?.config).toMatchObject({ useCertificateTransparency: false, skipDiscovery: false });
        const audits = await api.db.select().from(auditLog).where(eq(auditLog.userId, ann.uid));
        expect(audits.map((a) => [a.action, a.detail])).toContainEqual([
          'scan.started',
          { scanId: started.scan_id, domain: annDomain, trigger: 'manual' },
        ]);
        await expectError(
          await call('/api/v1/scans', {
            method: 'POST',
            token: annKey,
            body: { domain: annDomain, scanType: 'dangling-subdomains' },
          }),
          409,
          `A scan of ${annDomain} is already running`,
          'SCAN_IN_PROGRESS',
        );
      });

      it('answers 400 naming the field, and 415 for a body that is not JSON', async () => {
        const post = (body: unknown) => call('/api/v1/scans', { method: 'POST', token: annKey, body });
        const missing = await expectError(
          await post({ domain: annDomain }),
          400,
          'The scan type must be one of: dangling-subdomains',
        );
        expect(missing.code).toBe('VALIDATION_ERROR');
        expect((await post({ domain: '127.0.0.1', scanType: 'dangling-subdomains' })).status).toBe(400);
        await expectError(
          await post({ domain: annDomain, scanType: 'dangling-subdomains', extra: 1 }),
          400,
          'The request does not take “extra”',
        );
        await expectError(
          await call('/api/v1/scans?limit=1000', { token: annKey }),
          400,
          'The limit must be at most 100',
        );
        await expectError(
          await call('/api/v1/findings?state=closed', { token: annKey }),
          400,
          'The state must be one of: open, accepted, resolved, all',
        );
        await expectError(
          await call('/api/v1/scans/not-a-uuid', { token: annKey }),
          400,
          'Scan ID is required',
        );
        const res = await api.app.request('/api/v1/scans', {
          method: 'POST',
          headers: { authorization: `Bearer ${annKey}`, 'content-type': 'text/plain' },
          body: 'domain=x',
        });
        await expectError(res, 415, 'Send the request body as application/json');
      });

      it("answers 404 for another user's scan, with the rate-limit headers", async () => {
        const res = await call(`/api/v1/scans/${bobScanId}`, { token: annKey });
        await expectError(res, 404, 'Scan not found');
        expect(res.headers.get('x-ratelimit-limit')).toBe('100');
        const own = await call(`/api/v1/scans/${annScanId}`, { token: bobKey });
        await expectError(own, 404, 'Scan not found');
        const domainsOfBob = (await (await call('/api/v1/domains', { token: bobKey })).json()) as {
          domains: unknown[];
        };
        expect(domainsOfBob.domains).toEqual([]);
      });

      it('sends X-RateLimit-* on every keyed answer and counts one budget per user', async () => {
        const first = await call('/api/v1/domains', { token: annKey });
        const second = await call('/api/v1/findings', { token: annKey });
        expect(first.headers.get('x-ratelimit-limit')).toBe('100');
        const remaining = Number(first.headers.get('x-ratelimit-remaining'));
        expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
        const reset = Number(first.headers.get('x-ratelimit-reset'));
        const now = Date.now() / 1000;
        expect(reset).toBeGreaterThan(now);
        expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 3600);
        expect(second.headers.get('x-ratelimit-reset')).toBe(String(reset));
        const [row] = await api.db
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, `api:${ann.uid}`));
        expect(row?.count).toBe(100 - remaining + 1);
      });

      it('records when a key was last used, at most once a minute', async () => {
        const [before] = await api.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, ann.uid));
        expect(before?.lastUsedAt).toBeInstanceOf(Date);
        await call('/api/v1/domains', { token: annKey });
        const [after] = await api.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.id, before?.id ?? ''));
        expect(after?.lastUsedAt?.getTime()).toBe(before?.lastUsedAt?.getTime());
        const listed = (await (await call('/api/keys', { token: ann.idToken })).json()) as {
          keys: { id: string; lastUsedAt: string | null }[];
        };
        expect(listed.keys.find((k) => k.id === before?.id)?.lastUsedAt).toBe(
          before?.lastUsedAt?.toISOString(),
        );
      });

      it("answers 429 past Intro's 100 calls an hour, one budget shared by two API processes on the database", async () => {
        // Intro, the plan one can buy, creates its own key and gets the limit the plan table gives it.
        const carol = await api.signIn('carol', { email: `carol@c-${tag}.com` });
        await setTier(carol, 'intro');
        const key = await newKey(carol);
        const other = testApp(api.database, {});
        const apps = [api.app, other];
        for (let i = 0; i < 100; i++) {
          const res = await apps[i % 2]?.request('/api/v1/domains', {
            headers: { authorization: `Bearer ${key}` },
          });
          expect(res?.status).toBe(200);
          expect(res?.headers.get('x-ratelimit-remaining')).toBe(String(99 - i));
          await res?.arrayBuffer();
        }
        for (const instance of apps) {
          const res = await instance.request('/api/v1/scans', {
            headers: { authorization: `Bearer ${key}` },
          });
          await expectError(res, 429, 'Rate limit exceeded', 'RATE_LIMITED');
          expect(res.headers.get('x-ratelimit-limit')).toBe('100');
          expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
          const reset = Number(res.headers.get('x-ratelimit-reset'));
          const retryAfter = Number(res.headers.get('retry-after'));
          expect(retryAfter).toBeGreaterThan(3500);
          expect(retryAfter).toBeLessThanOrEqual(3600);
          expect(Math.abs(reset - (Date.now() / 1000 + retryAfter))).toBeLessThan(3);
        }
        // Other users keep their own budget.
        expect((await call('/api/v1/domains', { token: annKey })).status).toBe(200);
      });

      it('serves an OpenAPI 3.1 document without a key, naming every /api/v1 route', async () => {
        const res = await call('/api/v1/openapi.json');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const document = (await res.json()) as {
          openapi: string;
          paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
          components: { schemas: Record<string, object> };
        };
        expect(document.openapi).toBe('3.1.0');
        const routes = api.app.routes
          .filter((route) => route.path.startsWith('/api/v1/') && route.method !== 'ALL')
          .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
        const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
          Object.keys(methods).map((method) => `${method} ${path}`),
        );
        expect(routes.length).toBeGreaterThan(5);
        expect(documented.sort()).toEqual([...new Set(routes)].sort());
        // Every schema compiles as JSON Schema 2020-12 with its references resolved, and real
        // answers pass the documented ones.
        const ajv = new Ajv2020({ strict: false, validateFormats: false });
        const validators = Object.fromEntries(
          Object.keys(document.components.schemas).map((id) => [
            id,
            ajv.compile({ components: document.components, $ref: `#/components/schemas/${id}` }),
          ]),
        );
        for (const [path, id] of [
          ['/api/v1/domains', 'DomainList'],
          ['/api/v1/scans', 'ScanList'],
          [`/api/v1/scans/${annScanId}`, 'Scan'],
          ['/api/v1/findings', 'FindingList'],
          ['/api/v1/scans/not-a-uuid', 'Error'],
        ] as const) {
          const validate = validators[id];
          const body = await (await call(path, { token: annKey })).json();
          expect(validate?.(body), `${path}: ${JSON.stringify(validate?.errors)}`).toBe(true);
        }
        expect(Object.keys(document.paths['/api/v1/scans']?.get?.responses ?? {})).toEqual(
          expect.arrayContaining(['200', '401', '403', '429']),
        );
      });
    },
  );
}
