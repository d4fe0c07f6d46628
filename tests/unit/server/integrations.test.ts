import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTEGRATION_URLS } from '../../../src/core/integrations/targets.ts';
import { INTEGRATION_CALL_RATE, WEBHOOK_TEST_RATE } from '../../../src/core/limits.ts';
import { auditLog, integrations } from '../../../src/db/schema.ts';
import type {
  IntegrationDeliveryView,
  IntegrationView,
  JiraChoices,
} from '../../../src/model/integrations.ts';
import { WORKSPACE_MESSAGES } from '../../../src/model/workspaces.ts';
import { type GitHubFixture, startGitHub } from '../../fixtures/trackers/github.ts';
import { type JiraFixture, startJira } from '../../fixtures/trackers/jira.ts';
import { type LinearFixture, startLinear } from '../../fixtures/trackers/linear.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../fixtures/trackers/pagerduty.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

const ROUTING_KEY = `${'Q'.repeat(28)}abcd`;
const TOKEN = 'ghp_routes_token';
const LINEAR_TEAM = '2f9a4c3e-1111-4222-8333-444455556666';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `integrations API on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let pd: PagerDutyFixture;
      let gh: GitHubFixture;
      let jira: JiraFixture;
      let linear: LinearFixture;
      const queued: string[] = [];
      beforeAll(async () => {
        pd = await startPagerDuty();
        pd.routingKeys.add(ROUTING_KEY);
        gh = await startGitHub();
        gh.tokens.add(TOKEN);
        gh.repos.set('acme/infra', { hasIssues: true, issues: [] });
        jira = await startJira();
        jira.accounts.add('ann@acme.com:ATATT-routes');
        jira.projects.set('OPS', { issueTypes: ['Bug', 'Task'], name: 'Operations' });
        jira.projects.set('WEB', { issueTypes: ['Story'], name: 'Website' });
        linear = await startLinear();
        linear.apiKeys.add('lin_api_routes');
        linear.teams.set(LINEAR_TEAM, { key: 'SEC', name: 'Security', states: [] });
        linear.teams.set('9d0e2f4a-5555-4666-8777-888899990000', { key: 'WEB', name: 'Website', states: [] });
        return async () => {
          await linear.close();
          await pd.close();
          await gh.close();
          await jira.close();
        };
      });
      const api = apiSuite(backend, () => ({
        integrations: {
          secrets: { key: randomBytes(32) },
          enqueue: async (id) => void queued.push(id),
          urls: {
            ...DEFAULT_INTEGRATION_URLS,
            pagerduty: pd.url,
            github: gh.url,
            linear: linear.url,
            allowPlainLoopback: true,
            // Nothing here waits for a timeout: room for a busy machine's first loopback answer.
            timeoutMs: 2_000,
          },
        },
      }));
      const { call } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let vic: MintedUser;
      let mel: MintedUser;
      let team: Awaited<ReturnType<typeof insertTeam>>;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: 'ann@acme.com' });
        bob = await api.signIn('bob', { email: 'bob@bob.com' });
        vic = await api.signIn('vic', { email: 'vic@acme.com' });
        mel = await api.signIn('mel', { email: 'mel@acme.com' });
        team = await insertTeam(api, { name: 'Acme', tier: 'starter' }, [
          [ann, 'admin'],
          [vic, 'viewer'],
          [mel, 'member'],
        ]);
      });

      const pagerduty = { kind: 'pagerduty', label: 'On call', credentials: { routingKey: ROUTING_KEY } };

      it('needs a signed-in caller (401)', async () => {
        await expectError(await call('/api/integrations'), 401, 'Authentication required');
        await expectError(
          await call('/api/integrations', { method: 'POST', body: pagerduty }),
          401,
          'Authentication required',
        );
      });

      it('connects PagerDuty: 201, checked with a dw-test trigger and resolve, never showing the key', async () => {
        const res = await team.as(ann, '/api/integrations', { method: 'POST', body: pagerduty });
        expect(res.status).toBe(201);
        const { integration } = (await res.json()) as { integration: IntegrationView };
        expect(integration).toMatchObject({
          kind: 'pagerduty',
          label: 'On call',
          minStatus: 'likely',
          settings: {},
          credentialHint: 'abcd',
          lastDelivery: null,
        });
        expect(JSON.stringify(integration)).not.toContain(ROUTING_KEY);
        expect(
          [...pd.alerts.entries()].filter(([k, a]) => k.startsWith('dw-test-') && a.status === 'resolved'),
        ).toHaveLength(1);
        const list = (await (await team.as(ann, '/api/integrations')).json()) as {
          integrations: IntegrationView[];
        };
        expect(list.integrations.map((i) => i.id)).toEqual([integration.id]);
        const one = await team.as(ann, `/api/integrations/${integration.id}`);
        expect(one.status).toBe(200);
        expect(((await one.json()) as { integration: IntegrationView }).integration.id).toBe(integration.id);
        const audits = await api.db.select().from(auditLog).where(eq(auditLog.workspaceId, team.id));
        expect(audits.map((a) => a.action)).toContain('integration.connected');
      });

      it("refuses a credential the service refuses: 400 with the service's reason, nothing stored", async () => {
        const before = (await api.db.select().from(integrations)).length;
        const res = await team.as(ann, '/api/integrations', {
          method: 'POST',
          body: {
            kind: 'github',
            minStatus: 'claimable',
            settings: { repository: 'acme/infra' },
            credentials: { token: 'nope' },
          },
        });
        // The sentence is ours; GitHub's own words come along as the detail.
        const refused = await expectError(
          res,
          400,
          'GitHub did not accept the token: it may be mistyped, expired or revoked',
        );
        expect(refused.details).toEqual([{ path: 'provider', message: 'Bad credentials' }]);
        const wrongKey = await team.as(ann, '/api/integrations', {
          method: 'POST',
          body: { ...pagerduty, credentials: { routingKey: 'Z'.repeat(32) } },
        });
        const unknownKey = await expectError(
          wrongKey,
          400,
          'PagerDuty knows no service by this routing key: copy the Integration Key of an Events API v2 integration on the PagerDuty service (Integrations tab)',
        );
        expect(unknownKey.details).toEqual([
          { path: 'provider', message: 'Event object is invalid; Invalid routing key' },
        ]);
        // A service that is down or rate limiting did not refuse anything: 502, nothing stored.
        pd.faults.push({ status: 429, body: { status: 'throttle event', message: 'Too many requests' } });
        await expectError(
          await team.as(ann, '/api/integrations', { method: 'POST', body: pagerduty }),
          502,
          'PagerDuty is rate limiting us; it will be tried again later',
        );
        expect(await api.db.select().from(integrations)).toHaveLength(before);
      });

      it('connects GitHub with its repository', async () => {
        const res = await team.as(ann, '/api/integrations', {
          method: 'POST',
          body: {
            kind: 'github',
            label: 'Infra',
            minStatus: 'claimable',
            settings: { repository: 'acme/infra' },
            credentials: { token: TOKEN },
          },
        });
        expect(res.status).toBe(201);
        expect(((await res.json()) as { integration: IntegrationView }).integration).toMatchObject({
          kind: 'github',
          minStatus: 'claimable',
          settings: { repository: 'acme/infra' },
          credentialHint: 'oken',
        });
      });

      it('reads a GitHub repository given as its address, and says in words that one it cannot see is missing', async () => {
        for (const repository of [
          'https://github.com/acme/infra',
          'https://github.com/acme/infra.git',
          'https://github.com/acme/infra/',
          'github.com/acme/infra/issues',
          'acme/infra.git',
        ]) {
          const res = await team.as(ann, '/api/integrations', {
            method: 'POST',
            body: { kind: 'github', settings: { repository }, credentials: { token: TOKEN } },
          });
          expect(res.status, repository).toBe(201);
          const { integration } = (await res.json()) as { integration: IntegrationView };
          expect(integration.settings, repository).toEqual({ repository: 'acme/infra' });
          await team.as(ann, `/api/integrations/${integration.id}`, { method: 'DELETE' });
        }
        const missing = await team.as(ann, '/api/integrations', {
          method: 'POST',
          body: {
            kind: 'github',
            settings: { repository: 'https://github.com/acme/secret' },
            credentials: { token: TOKEN },
          },
        });
        const words = await expectError(
          missing,
          400,
          'GitHub shows no repository acme/secret to this token: check its spelling, and that the token may read it',
        );
        expect(words.details).toEqual([{ path: 'provider', message: 'Not Found' }]);
      });

      it("connects Linear by the team's key or name, keeping the team's id; one the key does not see is offered from", async () => {
        const connect = (teamId: string) =>
          team.as(ann, '/api/integrations', {
            method: 'POST',
            body: { kind: 'linear', settings: { teamId }, credentials: { apiKey: 'lin_api_routes' } },
          });
        for (const named of ['SEC', 'security', LINEAR_TEAM]) {
          const res = await connect(named);
          expect(res.status, named).toBe(201);
          const { integration } = (await res.json()) as { integration: IntegrationView };
          expect(integration.settings, named).toEqual({ teamId: LINEAR_TEAM, team: 'Security (SEC)' });
          await team.as(ann, `/api/integrations/${integration.id}`, { method: 'DELETE' });
        }
        const before = (await api.db.select().from(integrations)).length;
        await expectError(
          await connect('OPS'),
          400,
          "This Linear API key sees no team “OPS”: give one of its teams' keys: SEC (Security), WEB (Website)",
          'INTEGRATION_REFUSED',
        );
        expect(await api.db.select().from(integrations)).toHaveLength(before);
      });

      it('refuses bad input with 400', async () => {
        for (const body of [
          { kind: 'smoke-signals', credentials: {} },
          { kind: 'pagerduty', credentials: {} },
          { kind: 'pagerduty', minStatus: 'urgent', credentials: { routingKey: ROUTING_KEY } },
          { kind: 'github', settings: { repository: 'not a repo' }, credentials: { token: TOKEN } },
          { kind: 'github', settings: { repository: 'acme/infra' }, credentials: { token: 'has space' } },
          { ...pagerduty, extra: true },
          {
            kind: 'jira',
            settings: {
              siteUrl: 'ftp://acme.atlassian.net',
              projectKey: 'OPS',
              issueType: 'Bug',
              doneTransition: 'Done',
            },
            credentials: { email: 'ann@acme.com', apiToken: 't' },
          },
          {
            kind: 'jira',
            settings: {
              siteUrl: 'https://acme.atlassian.net',
              projectKey: 'ops',
              issueType: 'Bug',
              doneTransition: 'Done',
            },
            credentials: { email: 'ann@acme.com', apiToken: 't' },
          },
          { kind: 'linear', settings: {}, credentials: { apiKey: 'lin_api_x' } },
        ]) {
          const res = await team.as(ann, '/api/integrations', { method: 'POST', body });
          expect(res.status, JSON.stringify(body)).toBe(400);
        }
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        const patch = await team.as(ann, `/api/integrations/${first?.id}`, { method: 'PATCH', body: {} });
        expect(patch.status).toBe(400);
      });

      it('changes the label and least status (200), tests (202) and lists the last deliveries', async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        const id = first?.id ?? '';
        const patch = await team.as(ann, `/api/integrations/${id}`, {
          method: 'PATCH',
          body: { label: 'Pager', minStatus: 'review' },
        });
        expect(patch.status).toBe(200);
        expect(((await patch.json()) as { integration: IntegrationView }).integration).toMatchObject({
          label: 'Pager',
          minStatus: 'review',
        });
        const test = await team.as(ann, `/api/integrations/${id}/test`, { method: 'POST' });
        expect(test.status).toBe(202);
        const { delivery } = (await test.json()) as { delivery: IntegrationDeliveryView };
        expect(delivery).toMatchObject({ action: 'test', status: 'pending', findingKey: null });
        expect(queued).toContain(delivery.id);
        const log = (await (await team.as(ann, `/api/integrations/${id}/deliveries`)).json()) as {
          deliveries: IntegrationDeliveryView[];
        };
        expect(log.deliveries.map((d) => d.id)).toEqual([delivery.id]);
      });

      it("replaces a credential once the service accepts it (200); one it refuses, or of another service's shape, is 400 and changes nothing", async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        const id = first?.id ?? '';
        const sealed = async () =>
          (await api.db.select().from(integrations).where(eq(integrations.id, id)))[0]?.credentialSealed;
        const before = await sealed();
        const rotated = `${'R'.repeat(28)}wxyz`;
        pd.routingKeys.add(rotated);
        const refused = await team.as(ann, `/api/integrations/${id}`, {
          method: 'PATCH',
          body: { credentials: { routingKey: `${'Z'.repeat(28)}nope` } },
        });
        await expectError(
          refused,
          400,
          'PagerDuty knows no service by this routing key: copy the Integration Key of an Events API v2 integration on the PagerDuty service (Integrations tab)',
          'INTEGRATION_REFUSED',
        );
        const wrongShape = await team.as(ann, `/api/integrations/${id}`, {
          method: 'PATCH',
          body: { credentials: { token: TOKEN } },
        });
        await expectError(wrongShape, 400, 'credentials: PagerDuty takes routingKey', 'VALIDATION_ERROR');
        expect(await sealed()).toBe(before);
        const replaced = await team.as(ann, `/api/integrations/${id}`, {
          method: 'PATCH',
          body: { credentials: { routingKey: rotated } },
        });
        expect(replaced.status).toBe(200);
        const { integration } = (await replaced.json()) as { integration: IntegrationView };
        expect(integration).toMatchObject({ id, credentialHint: 'wxyz' });
        expect(JSON.stringify(integration)).not.toContain(rotated);
        expect(await sealed()).not.toBe(before);
        const audit = await api.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, 'integration.credential_replaced'));
        expect(audit.map((a) => a.detail)).toContainEqual(expect.objectContaining({ integrationId: id }));
        // A viewer may not, whatever the body.
        expect(
          (
            await team.as(vic, `/api/integrations/${id}`, {
              method: 'PATCH',
              body: { credentials: { routingKey: rotated } },
            })
          ).status,
        ).toBe(403);
      });

      it('counts tests with webhook tests: past the limit, 429', async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        const statuses: number[] = [];
        for (let n = 0; n < WEBHOOK_TEST_RATE.limit; n++)
          statuses.push(
            (await team.as(ann, `/api/integrations/${first?.id}/test`, { method: 'POST' })).status,
          );
        expect(statuses.at(-1)).toBe(429);
      });

      const jiraAsk = (projectKey?: string, apiToken = 'ATATT-routes') => ({
        siteUrl: jira.url,
        credentials: { email: 'ann@acme.com', apiToken },
        ...(projectKey ? { projectKey } : {}),
      });

      it("offers a Jira site's projects, and a project's issue types and done statuses (200), counted", async () => {
        const res = await team.as(ann, '/api/integrations/jira/choices', { method: 'POST', body: jiraAsk() });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(INTEGRATION_CALL_RATE.limit));
        expect(await res.json()).toEqual({
          projects: [
            { key: 'OPS', name: 'Operations' },
            { key: 'WEB', name: 'Website' },
          ],
          issueTypes: [],
          transitions: [],
        });
        const ops = await team.as(ann, '/api/integrations/jira/choices', {
          method: 'POST',
          body: jiraAsk('OPS'),
        });
        expect(ops.status).toBe(200);
        const choices = (await ops.json()) as JiraChoices;
        expect(choices.issueTypes.map((t) => t.name)).toEqual(['Bug', 'Task']);
        expect(choices.transitions).toEqual([{ name: 'Done' }]);
        // One count with the connects and replacements made before: each look-up takes one more.
        expect(Number(ops.headers.get('x-ratelimit-remaining'))).toBe(
          Number(res.headers.get('x-ratelimit-remaining')) - 1,
        );
      });

      it("choices: a credential Jira refuses is 400 in Jira's words; Jira slow or down is 502; bad input 400", async () => {
        await expectError(
          await team.as(ann, '/api/integrations/jira/choices', {
            method: 'POST',
            body: jiraAsk(undefined, 'wrong'),
          }),
          400,
          'Jira did not accept the credential',
        );
        jira.faults.push({ status: 503, body: {} });
        await expectError(
          await team.as(ann, '/api/integrations/jira/choices', { method: 'POST', body: jiraAsk() }),
          502,
          'Jira failed (HTTP 503); it will be tried again later',
        );
        for (const body of [
          {},
          { ...jiraAsk(), siteUrl: 'ftp://acme.atlassian.net' },
          { ...jiraAsk(), siteUrl: 'https://acme.atlassian.net/path?x' },
          { ...jiraAsk(), projectKey: 'ops' },
          { ...jiraAsk(), credentials: { email: 'not-an-address', apiToken: 't' } },
          { ...jiraAsk(), credentials: { email: 'ann@acme.com' } },
          { ...jiraAsk(), extra: true },
        ]) {
          const res = await team.as(ann, '/api/integrations/jira/choices', { method: 'POST', body });
          expect(res.status, JSON.stringify(body)).toBe(400);
        }
        await expectError(
          await call('/api/integrations/jira/choices', { method: 'POST', body: jiraAsk() }),
          401,
          'Authentication required',
        );
      });

      it('is for admins and owners: a viewer or member gets 403', async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        for (const user of [vic, mel]) {
          for (const [method, path, body] of [
            ['GET', '/api/integrations', undefined],
            ['POST', '/api/integrations', pagerduty],
            ['GET', `/api/integrations/${first?.id}`, undefined],
            ['DELETE', `/api/integrations/${first?.id}`, undefined],
            ['GET', `/api/integrations/${first?.id}/deliveries`, undefined],
            ['POST', '/api/integrations/jira/choices', jiraAsk()],
          ] as const) {
            const res = await team.as(user, path, { method, body });
            await expectError(res, 403, WORKSPACE_MESSAGES.roleNeeded('integrations.manage'));
          }
        }
      });

      it("answers 404 for another workspace's integration", async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        for (const [method, suffix] of [
          ['GET', ''],
          ['DELETE', ''],
          ['POST', '/test'],
          ['GET', '/deliveries'],
        ] as const) {
          const res = await call(`/api/integrations/${first?.id}${suffix}`, { method, token: bob.idToken });
          await expectError(res, 404, 'Integration not found');
        }
        await expectError(
          await call(`/api/integrations/${first?.id}`, {
            method: 'PATCH',
            token: bob.idToken,
            body: { label: 'x' },
          }),
          404,
          'Integration not found',
        );
        await expectError(await team.as(ann, '/api/integrations/nope'), 404, 'Integration not found');
      });

      it('removes one (204), and it is gone', async () => {
        const [first] = (
          (await (await team.as(ann, '/api/integrations')).json()) as { integrations: IntegrationView[] }
        ).integrations;
        expect((await team.as(ann, `/api/integrations/${first?.id}`, { method: 'DELETE' })).status).toBe(204);
        await expectError(await team.as(ann, `/api/integrations/${first?.id}`), 404, 'Integration not found');
      });
    },
  );
}
