import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDomain } from '../../../../src/core/domains/domains.ts';
import type { EngineSettings } from '../../../../src/core/engine-settings.ts';
import { findingKey } from '../../../../src/core/findings/key.ts';
import { deliverIntegration } from '../../../../src/core/integrations/deliver.ts';
import {
  createIntegration,
  getIntegration,
  listIntegrationDeliveries,
  updateIntegration,
} from '../../../../src/core/integrations/integrations.ts';
import { DEFAULT_INTEGRATION_URLS, type IntegrationUrls } from '../../../../src/core/integrations/targets.ts';
import { claimTicketDeliveries, queueTicketSync } from '../../../../src/core/integrations/tickets.ts';
import { runScan } from '../../../../src/core/scans/run.ts';
import { expireAcceptances } from '../../../../src/core/triage/acceptance-expiry.ts';
import { acceptRisk } from '../../../../src/core/triage/findings.ts';
import type { Database } from '../../../../src/db/client.ts';
import {
  domains,
  findings,
  integrationDeliveries,
  integrations,
  scans,
  users,
} from '../../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { type GitHubFixture, startGitHub } from '../../../fixtures/trackers/github.ts';
import { type JiraFixture, startJira } from '../../../fixtures/trackers/jira.ts';
import { type LinearFixture, startLinear } from '../../../fixtures/trackers/linear.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../../fixtures/trackers/pagerduty.ts';
import { personalContext } from '../../../helpers/context.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const DOMAIN = 'tickets-acme.com';
const DANGLING = `old.${DOMAIN}`;
const ROUTING_KEY = 'P'.repeat(32);
const TOKEN = 'ghp_tickets';
const USER = 'u-tickets';
const TEAM = '7c1e0d7a-0000-4000-8000-00000000000a';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `one ticket per finding on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let dns: DnsFixture;
      let pd: PagerDutyFixture;
      let gh: GitHubFixture;
      let linear: LinearFixture;
      let jira: JiraFixture;
      let settings: EngineSettings;
      let urls: IntegrationUrls;
      let domainId: string;
      const secrets = { key: randomBytes(32) };
      const ctx = personalContext(USER, { tier: 'free', email: `owner@${DOMAIN}` });
      const deps = () => ({ secrets, urls, publicUrl: 'https://danglewatch.example.net', logger });

      /** The domain, verified, in the owner's workspace: at the start, and again after its removal. */
      const addDomain = async () => {
        const [row] = await database.db
          .insert(domains)
          .values({
            workspaceId: USER,
            domain: DOMAIN,
            verificationToken: 't'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        domainId = row?.id ?? '';
      };

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        dns.add(DOMAIN, { type: 'A', data: '127.0.0.1' });
        dns.add(DANGLING, { type: 'CNAME', data: 'gone-4821.azurewebsites.net' });
        pd = await startPagerDuty();
        pd.routingKeys.add(ROUTING_KEY);
        gh = await startGitHub();
        gh.tokens.add(TOKEN);
        gh.repos.set('acme/infra', { hasIssues: true, issues: [] });
        linear = await startLinear();
        linear.apiKeys.add('lin_api_tickets');
        linear.teams.set(TEAM, {
          key: 'OPS',
          states: [
            { id: 's-todo', name: 'Todo', type: 'unstarted', position: 1 },
            { id: 's-done', name: 'Done', type: 'completed', position: 2 },
          ],
        });
        jira = await startJira();
        jira.accounts.add('ann@acme.com:ATATT-tickets');
        jira.projects.set('OPS', { issueTypes: ['Bug'] });
        urls = {
          ...DEFAULT_INTEGRATION_URLS,
          pagerduty: pd.url,
          github: gh.url,
          linear: linear.url,
          allowPlainLoopback: true,
          // Nothing here waits for a timeout: room for a busy machine's first loopback answer.
          timeoutMs: 2_000,
        };
        settings = {
          resolvers: [`127.0.0.1:${dns.port}`],
          allowPrivate: ['127.0.0.1'],
          wordlist: ['old', 'www'],
          timeoutMs: 400,
          validationDelayMs: 20,
          cloudRanges: [],
          // No registration lookups: the one dangling name's registrable domain is not what these test.
          rdapUrl: '',
        };
        await database.db.insert(users).values({ id: USER, email: `owner@${DOMAIN}`, provider: 'google' });
        await addDomain();
      });
      afterAll(async () => {
        await pd?.close();
        await gh?.close();
        await linear?.close();
        await jira?.close();
        await dns?.close();
        await database?.close();
      });

      /** Queues what changed and delivers it, as the worker's jobs do (a retry is tried again). */
      const deliverAll = async () => {
        let delivered = 0;
        for (const { id } of await claimTicketDeliveries(database.db)) {
          for (let attempt = 0; attempt < 5; attempt++) {
            const outcome = await deliverIntegration(database.db, id, deps());
            if (outcome !== 'retry') break;
          }
          delivered += 1;
        }
        return delivered;
      };
      const scanOnce = async () => {
        const [row] = await database.db
          .insert(scans)
          .values({
            workspaceId: USER,
            domainId,
            domain: DOMAIN,
            config: {
              skipDiscovery: false,
              useCertificateTransparency: false,
              useMultiStageValidation: false,
            },
          })
          .returning();
        if (!row) throw new Error('no scan');
        expect(await runScan(database.db, row.id, settings, logger)).toBe('completed');
        return deliverAll();
      };
      const finding = async () => {
        const [row] = await database.db.select().from(findings).where(eq(findings.subdomain, DANGLING));
        if (!row) throw new Error('no finding');
        return row;
      };
      const issues = () => gh.repos.get('acme/infra')?.issues ?? [];

      it('refuses a credential the service refuses, storing nothing', async () => {
        const refused = createIntegration(
          database.db,
          secrets,
          ctx,
          {
            kind: 'github',
            minStatus: 'review',
            settings: { repository: 'acme/infra' },
            credentials: { token: 'bad' },
          },
          urls,
          new Date(),
        );
        await expect(refused).rejects.toMatchObject({
          code: 'INTEGRATION_REFUSED',
          message: 'GitHub did not accept the token: it may be mistyped, expired or revoked',
        });
        expect(await database.db.select().from(integrations)).toEqual([]);
      });

      it('ten identical scans file one ticket in each service (PagerDuty, GitHub, Linear, Jira), and nothing more', async () => {
        await createIntegration(
          database.db,
          secrets,
          ctx,
          { kind: 'pagerduty', minStatus: 'review', settings: {}, credentials: { routingKey: ROUTING_KEY } },
          urls,
          new Date(),
        );
        await createIntegration(
          database.db,
          secrets,
          ctx,
          {
            kind: 'github',
            minStatus: 'review',
            settings: { repository: 'acme/infra' },
            credentials: { token: TOKEN },
          },
          urls,
          new Date(),
        );
        await createIntegration(
          database.db,
          secrets,
          ctx,
          {
            kind: 'linear',
            minStatus: 'review',
            settings: { teamId: TEAM },
            credentials: { apiKey: 'lin_api_tickets' },
          },
          urls,
          new Date(),
        );
        await createIntegration(
          database.db,
          secrets,
          ctx,
          {
            kind: 'jira',
            minStatus: 'review',
            settings: { siteUrl: jira.url, projectKey: 'OPS', issueType: 'Bug', doneTransition: 'Done' },
            credentials: { email: 'ann@acme.com', apiToken: 'ATATT-tickets' },
          },
          urls,
          new Date(),
        );
        const delivered: number[] = [];
        for (let n = 0; n < 10; n++) delivered.push(await scanOnce());
        // The first scan files one in each; the nine after it send nothing at all.
        expect(delivered).toEqual([4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        expect(jira.issues).toHaveLength(1);
        expect(jira.issues[0]?.status).toBe('To Do');
        const key = findingKey(USER, (await finding()).latest);
        expect(pd.alerts.get(key)).toMatchObject({ status: 'triggered', triggers: 1 });
        expect([...pd.alerts.keys()].filter((k) => !k.startsWith('dw-test-'))).toEqual([key]);
        expect(issues()).toHaveLength(1);
        expect(issues()[0]).toMatchObject({ state: 'open' });
        expect(issues()[0]?.body).toContain(`<!-- ${key} -->`);
        expect(linear.issues).toHaveLength(1);
        expect(linear.issues[0]?.attachments[0]?.url).toContain(encodeURIComponent(key));
        expect(linear.stateType(linear.issues[0] as never)).toBe('unstarted');
      });

      it('a change of status is one comment on the open ticket, and a rescan after it nothing', async () => {
        const row = await finding();
        const from = row.latest.status;
        const to = from === 'claimable' ? 'likely' : 'claimable';
        await database.db
          .update(findings)
          .set({ latest: { ...row.latest, status: to } })
          .where(eq(findings.id, row.id));
        expect(await queueTicketSync(database.db, USER, [row.id], { now: new Date() })).toBe(4);
        expect(await deliverAll()).toBe(4);
        const words = `Its status changed: ${from} → ${to}.`;
        expect(issues()[0]?.comments.at(-1)).toBe(words);
        expect(issues()[0]?.state).toBe('open');
        expect(linear.issues[0]?.comments.at(-1)).toBe(words);
        expect(jira.issues[0]?.comments).toHaveLength(1);
        expect(issues()).toHaveLength(1);
        expect(await queueTicketSync(database.db, USER, [row.id], { now: new Date() })).toBe(0);
        expect(await deliverAll()).toBe(0);
        // Back as it was, for the tests after this one.
        await database.db.update(findings).set({ latest: row.latest }).where(eq(findings.id, row.id));
        await queueTicketSync(database.db, USER, [row.id], { now: new Date() });
        expect(await deliverAll()).toBe(4);
      });

      it('accepting closes each ticket with who, why and until when; the expiry files it again', async () => {
        const now = new Date();
        const until = new Date(now.getTime() + 2 * 60_000);
        const row = await finding();
        const key = findingKey(USER, row.latest);
        const triggeredBefore = pd.alerts.get(key)?.triggers ?? 0;
        await acceptRisk(
          database.db,
          ctx,
          row.id,
          { accepted: true, note: 'parked on purpose', until: until.toISOString() },
          now,
        );
        expect(await deliverAll()).toBe(4);
        expect(linear.stateType(linear.issues[0] as never)).toBe('completed');
        expect(linear.issues[0]?.comments.at(-1)).toContain('parked on purpose');
        expect(jira.issues[0]?.status).toBe('Done');
        expect(pd.alerts.get(key)?.status).toBe('resolved');
        expect(issues()[0]?.state).toBe('closed');
        expect(issues()[0]?.comments.at(-1)).toBe(
          `Accepted as a risk by owner@${DOMAIN}: “parked on purpose”, until ${until.toISOString()}.`,
        );
        // A scan while it is accepted sends nothing.
        expect(await scanOnce()).toBe(0);

        expect(await expireAcceptances(database.db, new Date(until.getTime() + 60_000))).toBe(1);
        expect(await deliverAll()).toBe(4);
        expect(linear.stateType(linear.issues[0] as never)).toBe('unstarted');
        expect(linear.issues).toHaveLength(1);
        expect(jira.issues[0]?.status).toBe('To Do');
        expect(jira.issues).toHaveLength(1);
        expect(pd.alerts.get(key)).toMatchObject({ status: 'triggered', triggers: triggeredBefore + 1 });
        expect(issues()[0]?.state).toBe('open');
        expect(issues()[0]?.comments.at(-1)).toBe(
          `The acceptance by owner@${DOMAIN} expired on ${until.toISOString().slice(0, 10)}.`,
        );
        expect(issues()).toHaveLength(1);
      });

      it('fixing the record resolves the alert and closes the issue', async () => {
        const key = findingKey(USER, (await finding()).latest);
        dns.zone.delete(DANGLING);
        expect(await scanOnce()).toBe(4);
        expect(linear.stateType(linear.issues[0] as never)).toBe('completed');
        expect(linear.issues).toHaveLength(1);
        expect(jira.issues[0]?.status).toBe('Done');
        expect(jira.issues).toHaveLength(1);
        expect(pd.alerts.get(key)?.status).toBe('resolved');
        expect(issues()[0]?.state).toBe('closed');
        expect(issues()[0]?.comments.at(-1)).toMatch(/^Fixed: the scan of \d{4}-\d{2}-\d{2} found old\./);
        expect(issues()).toHaveLength(1);
        // Scanned again, fixed still: nothing.
        expect(await scanOnce()).toBe(0);
      });

      it('a delivery that meets a 429 is retried, and the log says what happened', async () => {
        const [github] = await database.db.select().from(integrations).where(eq(integrations.kind, 'github'));
        const id = github?.id ?? '';
        dns.add(DANGLING, { type: 'CNAME', data: 'gone-4821.azurewebsites.net' });
        gh.faults.push({ status: 429, body: { message: 'API rate limit exceeded' } });
        expect(await scanOnce()).toBe(4);
        const log = await listIntegrationDeliveries(database.db, ctx, id);
        expect(log[0]).toMatchObject({ action: 'open', status: 'delivered', attempts: 2, error: null });
        expect(issues()[0]?.state).toBe('open');
        expect(issues()).toHaveLength(1);
      });

      it('a revoked token fails for good; the replaced credential delivers what failed', async () => {
        const [github] = await database.db.select().from(integrations).where(eq(integrations.kind, 'github'));
        const id = github?.id ?? '';
        const row = await finding();
        const comments = issues()[0]?.comments.length ?? 0;
        gh.tokens.delete(TOKEN);
        const to = row.latest.status === 'claimable' ? 'likely' : 'claimable';
        await database.db
          .update(findings)
          .set({ latest: { ...row.latest, status: to } })
          .where(eq(findings.id, row.id));
        await queueTicketSync(database.db, USER, [row.id], { now: new Date() });
        expect(await deliverAll()).toBe(4);
        expect((await listIntegrationDeliveries(database.db, ctx, id))[0]).toMatchObject({
          status: 'failed',
          error: 'GitHub did not accept the token: it may be mistyped, expired or revoked (Bad credentials)',
        });
        // The card says its deliveries fail, with the reason, though its last test had passed.
        await database.db
          .insert(integrationDeliveries)
          .values({ integrationId: id, action: 'test', status: 'delivered', attempts: 1 });
        const failingView = await getIntegration(database.db, ctx, id);
        expect(failingView.failing).toMatchObject({
          error: 'GitHub did not accept the token: it may be mistyped, expired or revoked (Bad credentials)',
          retrying: false,
          test: false,
        });
        expect(issues()[0]?.comments).toHaveLength(comments);
        // Nothing retries a refusal on its own.
        expect(await deliverAll()).toBe(0);

        gh.tokens.add('ghp_rotated');
        await updateIntegration(
          database.db,
          secrets,
          ctx,
          id,
          { credentials: { token: 'ghp_rotated' } },
          urls,
          new Date(),
        );
        expect(await deliverAll()).toBe(1);
        expect(issues()[0]?.comments.at(-1)).toBe(`Its status changed: ${row.latest.status} → ${to}.`);
        // A ticket delivered since: no longer failing.
        expect((await getIntegration(database.db, ctx, id)).failing).toBeNull();
        expect(issues()).toHaveLength(1);
        await database.db.update(findings).set({ latest: row.latest }).where(eq(findings.id, row.id));
        await queueTicketSync(database.db, USER, [row.id], { now: new Date() });
        expect(await deliverAll()).toBe(4);
      });

      it('removing the domain closes its tickets, saying why; adding it back and scanning files them again', async () => {
        const key = findingKey(USER, (await finding()).latest);
        await removeDomain(database.db, ctx, domainId, new Date());
        expect(await deliverAll()).toBe(4);
        const words = `The domain ${DOMAIN} was removed from DangleWatch: nobody watches this record any more.`;
        expect(issues()[0]).toMatchObject({ state: 'closed' });
        expect(issues()[0]?.comments.at(-1)).toBe(words);
        expect(jira.issues[0]?.status).toBe('Done');
        expect(linear.stateType(linear.issues[0] as never)).toBe('completed');
        expect(pd.alerts.get(key)?.status).toBe('resolved');
        // The finding stays (it comes back with the domain), and a sync of it files nothing.
        expect((await finding()).resolvedAt).toBeNull();
        expect(await queueTicketSync(database.db, USER, [(await finding()).id], { now: new Date() })).toBe(0);

        await addDomain();
        expect(await scanOnce()).toBe(4);
        expect(issues()[0]?.state).toBe('open');
        expect(issues()).toHaveLength(1);
        expect(jira.issues).toHaveLength(1);
        expect(pd.alerts.get(key)?.status).toBe('triggered');
      });
    },
  );
}
