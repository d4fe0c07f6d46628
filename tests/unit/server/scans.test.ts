import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordFindingHistory } from '../../../src/core/findings/lifecycle.ts';
import { domains, scans, workerHeartbeats, workspaces } from '../../../src/db/schema.ts';
import {
  DEFAULT_SCAN_CONFIG,
  type ScanListResponse,
  type ScanStats,
  type ScanView,
  type ServiceHealth,
  type TrendPoint,
} from '../../../src/model/contract.ts';
import { scanQuotaMessage } from '../../../src/model/messages.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const FINDING = {
  subdomain: 'old.acme.com',
  recordType: 'CNAME' as const,
  target: 'gone-app.herokuapp.com',
  service: 'Heroku',
  status: 'claimable' as const,
  risk: 'high' as const,
  evidence: ['old.acme.com CNAME gone-app.herokuapp.com', 'HTTP 404 "No such app"'],
  explanation: 'x',
  proofOfConcept: 'y',
  remediation: 'z',
};

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `scan service API on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async (id) => void queued.push(id) }, queueUp: () => true },
      });
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      const annDomain = `ann-${tag}.com`;
      let domainId: string;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${annDomain}`, name: 'Ann' });
        bob = await api.signIn('bob', { email: `bob@bob-${tag}.com`, name: 'Bob' });
        // Ann's domain is verified as the verify route would.
        const [row] = await api.db
          .insert(domains)
          .values({
            workspaceId: ann.uid,
            domain: annDomain,
            verificationToken: 'a'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        domainId = row?.id ?? '';
      });

      const start = (token: string, body: unknown) =>
        call('/scan/api/v1/scan', { method: 'POST', token, body });

      it.each([
        ['POST', '/scan/api/v1/scan'],
        ['GET', '/scan/api/v1/scan/00000000-0000-4000-8000-000000000000'],
        ['GET', '/scan/api/v1/scans'],
        ['GET', '/scan/api/v1/scans/latest'],
        ['GET', '/scan/api/v1/scans/stats'],
        ['POST', '/scan/api/v1/scan/00000000-0000-4000-8000-000000000000/cancel'],
        ['GET', '/scan/api/v1/export'],
      ])('%s %s without a token answers 401', async (method, path) => {
        await expectError(await call(path, { method }), 401, 'Authentication required');
      });

      it('refuses bad start requests with 400', async () => {
        expect((await start(ann.idToken, { domain: annDomain })).status).toBe(400);
        expect((await start(ann.idToken, { domain: annDomain, scanType: 'port-scan' })).status).toBe(400);
        expect(
          (await start(ann.idToken, { domain: '127.0.0.1', scanType: 'dangling-subdomains' })).status,
        ).toBe(400);
        expect(
          (
            await start(ann.idToken, {
              domain: annDomain,
              scanType: 'dangling-subdomains',
              skip_discovery: 'no',
            })
          ).status,
        ).toBe(400);
      });

      it('scans only a verified domain of the caller', async () => {
        await expectError(
          await start(bob.idToken, { domain: annDomain, scanType: 'dangling-subdomains' }),
          409,
          `Add ${annDomain} and verify that you own it before scanning it`,
          'DOMAIN_NOT_VERIFIED',
        );
      });

      let first: string;

      it('starts a scan: 202 with the id, queued, one at a time per domain even when requests race', async () => {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            start(ann.idToken, {
              domain: annDomain,
              scanType: 'dangling-subdomains',
              use_certificate_transparency: false,
            }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409]);
        const res = answers.find((answer) => answer.status === 202) as Response;
        const body = (await res.json()) as { scan_id: string; status: string };
        expect(queued.filter((id) => id === body.scan_id)).toHaveLength(1);
        expect(body.status).toBe('pending');
        expect(queued).toContain(body.scan_id);
        first = body.scan_id;
        const scan = (await (
          await call(`/scan/api/v1/scan/${first}`, { token: ann.idToken })
        ).json()) as ScanView;
        expect(scan).toMatchObject({
          scan_id: first,
          domain: annDomain,
          status: 'pending',
          scan_config: {
            useCertificateTransparency: false,
            skipDiscovery: false,
            useMultiStageValidation: true,
          },
        });
        await expectError(
          await start(ann.idToken, { domain: annDomain, scanType: 'dangling-subdomains' }),
          409,
          `A scan of ${annDomain} is already running`,
          'SCAN_IN_PROGRESS',
        );
      });

      it("answers 404 for another user's scan and 400 for a malformed id", async () => {
        await expectError(
          await call(`/scan/api/v1/scan/${first}`, { token: bob.idToken }),
          404,
          'Scan not found',
        );
        await expectError(
          await call(`/scan/api/v1/scan/${first}/cancel`, { method: 'POST', token: bob.idToken }),
          404,
          'Scan not found',
        );
        await expectError(
          await call('/scan/api/v1/scan/nope', { token: ann.idToken }),
          400,
          'Scan ID is required',
        );
      });

      it('cancels a pending scan at once; an ended scan cannot be cancelled', async () => {
        const res = await call(`/scan/api/v1/scan/${first}/cancel`, { method: 'POST', token: ann.idToken });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { scan: ScanView }).scan).toMatchObject({
          status: 'cancelled',
          error: 'Cancelled by you',
        });
        await expectError(
          await call(`/scan/api/v1/scan/${first}/cancel`, { method: 'POST', token: ann.idToken }),
          409,
          'This scan has already ended (cancelled)',
        );
      });

      it("refuses a scan past the plan's daily quota with the reason", async () => {
        await expectError(
          await start(ann.idToken, { domain: annDomain, scanType: 'dangling-subdomains' }),
          409,
          scanQuotaMessage(1, 'Free'),
          'QUOTA_EXCEEDED',
        );
        const user = (await (await call('/auth/user', { token: ann.idToken })).json()) as {
          quota: { remaining: number };
        };
        expect(user.quota.remaining).toBe(0);
      });

      it('lists with paging, status filter and search; stats count real rows; export has everything', async () => {
        const base = new Date('2026-11-01T10:00:00Z');
        const rows = Array.from({ length: 12 }, (_, i) => ({
          workspaceId: ann.uid,
          domainId,
          domain: i % 2 ? annDomain : `shop.${annDomain}`,
          status: i < 9 ? 'completed' : 'failed',
          trigger: 'scheduled',
          createdAt: new Date(base.getTime() + i * 60_000),
          startedAt: new Date(base.getTime() + i * 60_000),
          completedAt: new Date(base.getTime() + i * 60_000 + 5_000),
          durationSeconds: 5,
          subdomainsScanned: 10,
          vulnerabilitiesFound: i < 9 ? 1 : 0,
          criticalCount: i < 9 ? 1 : 0,
          findings: i < 9 ? [FINDING] : [],
          error: i < 9 ? null : 'The scan could not finish: boom',
        }));
        // Stored as the worker stores them: each completed scan recorded in the findings' state.
        for (const row of await api.db.insert(scans).values(rows).returning())
          if (row.status === 'completed')
            await recordFindingHistory(api.db, row, row.findings, [], row.completedAt as Date);
        const page1 = (await (
          await call('/scan/api/v1/scans', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(page1.total).toBe(13);
        expect(page1.scans).toHaveLength(10);
        const page2 = (await (
          await call('/scan/api/v1/scans?limit=10&offset=10', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(page2.scans).toHaveLength(3);
        expect(page2.total).toBe(13);
        expect(new Set([...page1.scans, ...page2.scans].map((s) => s.scan_id)).size).toBe(13);
        // A page past the end has no row to carry the total, which is still told.
        expect(
          await (await call('/scan/api/v1/scans?limit=10&offset=20', { token: ann.idToken })).json(),
        ).toEqual({ scans: [], total: 13 });
        const failedPage = (await (
          await call('/scan/api/v1/scans?status=failed&limit=2', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(failedPage.scans).toHaveLength(2);
        expect(failedPage.total).toBe(3);
        const failed = (await (
          await call('/scan/api/v1/scans?status=failed', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(failed.total).toBe(3);
        expect(failed.scans.every((s) => s.status === 'failed')).toBe(true);
        const shop = (await (
          await call('/scan/api/v1/scans?q=SHOP.', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(shop.total).toBe(6);
        const byId = (await (
          await call(`/scan/api/v1/scans?q=${first.slice(0, 8)}`, { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(byId.scans.map((s) => s.scan_id)).toEqual([first]);
        const literal = (await (
          await call('/scan/api/v1/scans?q=%25', { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(literal.total).toBe(0);
        expect((await call('/scan/api/v1/scans?limit=0', { token: ann.idToken })).status).toBe(400);
        expect((await call('/scan/api/v1/scans?status=exploded', { token: ann.idToken })).status).toBe(400);
        const bobs = (await (
          await call('/scan/api/v1/scans', { token: bob.idToken })
        ).json()) as ScanListResponse;
        expect(bobs).toEqual({ scans: [], total: 0 });

        const stats = (await (
          await call('/scan/api/v1/scans/stats', { token: ann.idToken })
        ).json()) as ScanStats;
        expect(stats).toMatchObject({
          total: 13,
          by_status: { completed: 9, failed: 3, cancelled: 1, running: 0, pending: 0 },
          success_rate: 75,
          // The same finding in 9 scans of 2 names is 2 issues open now, not 9.
          issues_found: 2,
          issues_resolved: 0,
          domains_monitored: 1,
        });
        const latest = (await (await call('/scan/api/v1/scans/latest', { token: ann.idToken })).json()) as {
          scan: ScanView;
        };
        expect(latest.scan.scan_id).toBe(first);
        const exported = (await (await call('/scan/api/v1/export', { token: ann.idToken })).json()) as {
          scans: ScanView[];
        };
        expect(exported.scans).toHaveLength(13);
        expect(exported.scans.find((s) => s.findings.length)?.findings[0]).toEqual({
          ...FINDING,
          key: expect.stringMatching(/^dw:[0-9a-f]{40}$/),
        });
      });

      it("draws a domain's trend from its completed scans: open findings by status", async () => {
        const res = await call(`/api/domains/${domainId}/trend`, { token: ann.idToken });
        expect(res.status).toBe(200);
        const { points } = (await res.json()) as { points: TrendPoint[] };
        expect(points).toHaveLength(9);
        // The first scan was of the other name; the domain's finding is open from its first scan on.
        expect(points.map((p) => p.claimable)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1]);
        expect(points.every((p) => p.likely === 0 && p.review === 0)).toBe(true);
        expect(points.map((p) => p.at)).toEqual([...points.map((p) => p.at)].sort());
        await expectError(
          await call(`/api/domains/${domainId}/trend`, { token: bob.idToken }),
          404,
          'Domain not found',
        );
        await expectError(await call(`/api/domains/${domainId}/trend`), 401, 'Authentication required');
      });

      it('health reports the database, the queue and the worker heartbeat', async () => {
        const before = (await (await call('/scan/health')).json()) as ServiceHealth;
        expect(before).toMatchObject({
          status: 'degraded',
          checks: { database: true, queue: true, worker: false },
          // This app was given no list of proofs off: it names none.
          proofs_off: [],
        });
        await api.db.insert(workerHeartbeats).values({ id: 'test-worker', seenAt: new Date() });
        const after = (await (await call('/scan/health')).json()) as ServiceHealth;
        expect(after).toMatchObject({ status: 'healthy', checks: { worker: true } });
        await api.db.delete(workerHeartbeats).where(eq(workerHeartbeats.id, 'test-worker'));
      });

      it('a paid plan lifts the quota (users set-plan)', async () => {
        await api.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, ann.uid));
        const res = await start(ann.idToken, { domain: annDomain, scanType: 'dangling-subdomains' });
        expect(res.status).toBe(202);
      });

      it("answers a scan with the fingerprints' sources it used, and null for one stored before they were kept", async () => {
        const sources = [
          { name: 'nuclei-templates', url: 'file:///srv/nuclei/http/takeovers', date: '2026-11-28' },
          { name: 'BadDNS', url: 'https://github.com/blacklanternsecurity/baddns', date: '2026-03-22' },
        ];
        const ended = { workspaceId: ann.uid, domainId, status: 'completed', completedAt: new Date() };
        const [recorded, older] = await api.db
          .insert(scans)
          .values([
            { ...ended, domain: `fp.${annDomain}`, fingerprints: sources },
            { ...ended, domain: `old.${annDomain}` },
          ])
          .returning({ id: scans.id });
        const one = async (id: string | undefined) => {
          const res = await call(`/scan/api/v1/scan/${id}`, { token: ann.idToken });
          expect(res.status).toBe(200);
          return (await res.json()) as ScanView;
        };
        expect((await one(recorded?.id)).fingerprints).toEqual(sources);
        expect((await one(older?.id)).fingerprints).toBeNull();
        // The list answers carry them too: a scan card needs no second call to say what it used.
        const { scans: list } = (await (
          await call(`/scan/api/v1/scans?q=fp.${annDomain}`, { token: ann.idToken })
        ).json()) as ScanListResponse;
        expect(list.map((s) => s.fingerprints)).toEqual([sources]);
        await expectError(
          await call(`/scan/api/v1/scan/${recorded?.id}`, { token: bob.idToken }),
          404,
          'Scan not found',
        );
      });
    },
  );
}
