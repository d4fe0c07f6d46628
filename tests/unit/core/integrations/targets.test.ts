import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_INTEGRATION_URLS,
  githubMarker,
  type IntegrationUrls,
  jiraChoices,
  jiraLabel,
  TargetError,
  type TicketItem,
  targetOf,
} from '../../../../src/core/integrations/targets.ts';
import { type GitHubFixture, startGitHub } from '../../../fixtures/trackers/github.ts';
import { adfText, type JiraFixture, startJira } from '../../../fixtures/trackers/jira.ts';
import { type LinearFixture, linearError, startLinear } from '../../../fixtures/trackers/linear.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../../fixtures/trackers/pagerduty.ts';

const ROUTING_KEY = 'R'.repeat(32);
const TOKEN = 'ghp_fixture_token';

const item = (key: string): TicketItem => ({
  key,
  title: 'Dangling CNAME record: old.acme.com → gone.herokuapp.com (Heroku)',
  body: 'The app is gone.',
  status: 'claimable',
  subdomain: 'old.acme.com',
  domain: 'acme.com',
  service: 'Heroku',
  target: 'gone.herokuapp.com',
  link: `https://danglewatch.example.net/dashboard?finding=${key}`,
});

/** The error a call ended with, which must be a TargetError. */
async function refusal(promise: Promise<unknown>): Promise<TargetError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TargetError);
  return error as TargetError;
}

describe('PagerDuty Events API v2 against a loopback stand-in', () => {
  let pd: PagerDutyFixture;
  let urls: IntegrationUrls;
  beforeAll(async () => {
    pd = await startPagerDuty();
    pd.routingKeys.add(ROUTING_KEY);
    urls = { ...DEFAULT_INTEGRATION_URLS, pagerduty: pd.url, timeoutMs: 1_000 };
  });
  afterAll(() => pd?.close());
  const target = (routingKey = ROUTING_KEY) => targetOf('pagerduty', {}, { routingKey }, urls);

  it('checks a routing key by a dw-test trigger and its resolve', async () => {
    await target().verify();
    const tests = [...pd.alerts.entries()].filter(([k]) => k.startsWith('dw-test-'));
    expect(tests).toHaveLength(1);
    expect(tests[0]?.[1]).toMatchObject({ status: 'resolved', triggers: 1, resolves: 1 });
  });

  it("refuses an unknown key with PagerDuty's own reason, not to be retried", async () => {
    const error = await refusal(target('x'.repeat(32)).verify());
    expect(error.message).toBe('PagerDuty refused: Event object is invalid; Invalid routing key');
    expect(error.retry).toBe(false);
  });

  it('triggers with the key as dedup key, the summary, source, component, details and link; resolves it', async () => {
    const key = 'dw:1111111111111111111111111111111111111111';
    expect(await target().open(item(key), null, null)).toBe(key);
    const alert = pd.alerts.get(key);
    expect(alert?.status).toBe('triggered');
    expect(alert?.last).toMatchObject({
      event_action: 'trigger',
      dedup_key: key,
      payload: { source: 'old.acme.com', severity: 'critical', component: 'Heroku', custom_details: { key } },
      links: [{ href: item(key).link }],
    });
    await target().close(item(key), key, 'Fixed.');
    expect(pd.alerts.get(key)?.status).toBe('resolved');
  });

  it('a 429, a 5xx or a timeout is worth retrying', async () => {
    pd.faults.push({
      status: 429,
      body: { status: 'throttle event', message: 'Requests for this service are arriving too quickly' },
    });
    expect((await refusal(target().open(item('dw:2'), null, null))).retry).toBe(true);
    pd.faults.push({ status: 502, body: {} });
    expect((await refusal(target().open(item('dw:2'), null, null))).retry).toBe(true);
    pd.faults.push('hang');
    const timeout = await refusal(target().open(item('dw:2'), null, null));
    expect(timeout.retry).toBe(true);
    expect(timeout.message).toMatch(/did not answer within/);
  });
});

describe('GitHub Issues against a loopback stand-in', () => {
  let gh: GitHubFixture;
  let urls: IntegrationUrls;
  beforeAll(async () => {
    gh = await startGitHub();
    gh.tokens.add(TOKEN);
    gh.repos.set('acme/infra', { hasIssues: true, issues: [] });
    gh.repos.set('acme/no-issues', { hasIssues: false, issues: [] });
    urls = { ...DEFAULT_INTEGRATION_URLS, github: gh.url, timeoutMs: 1_000 };
  });
  afterAll(() => gh?.close());
  const target = (repository = 'acme/infra', token = TOKEN) =>
    targetOf('github', { repository }, { token }, urls);
  const issues = () => gh.repos.get('acme/infra')?.issues ?? [];

  it("checks the token and the repository, refusing with GitHub's words", async () => {
    await target().verify();
    expect((await refusal(target('acme/infra', 'nope').verify())).message).toBe(
      'GitHub refused: Bad credentials',
    );
    expect((await refusal(target('acme/missing').verify())).message).toBe('GitHub refused: Not Found');
    expect((await refusal(target('acme/no-issues').verify())).message).toMatch(/issues are turned off/);
  });

  it('files one issue per key, with the hidden marker, found again by it without a kept reference', async () => {
    const key = 'dw:3333333333333333333333333333333333333333';
    const ref = await target().open(item(key), null, null);
    expect(issues()).toHaveLength(1);
    expect(issues()[0]?.body).toContain(githubMarker(key));
    expect(issues()[0]?.labels).toEqual([{ name: 'danglewatch' }]);
    // Lost reference (a crash after filing): the marker finds the same issue.
    expect(await target().open(item(key), null, null)).toBe(ref);
    expect(await target().open(item(key), ref, null)).toBe(ref);
    expect(issues()).toHaveLength(1);
  });

  it('closes with a comment, and reopens with one when the finding comes back', async () => {
    const key = 'dw:3333333333333333333333333333333333333333';
    await target().close(item(key), null, 'Accepted as a risk by Ann: “parked”, until 2026-12-22.');
    expect(issues()[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(issues()[0]?.comments).toEqual(['Accepted as a risk by Ann: “parked”, until 2026-12-22.']);
    await target().close(item(key), null, 'again');
    expect(issues()[0]?.comments).toHaveLength(1);
    await target().open(item(key), null, 'The acceptance by Ann expired on 2026-12-22.');
    expect(issues()[0]?.state).toBe('open');
    expect(issues()[0]?.comments.at(-1)).toBe('The acceptance by Ann expired on 2026-12-22.');
    expect(issues()).toHaveLength(1);
  });

  it('finds its issue among more than a page of them', async () => {
    for (let n = 0; n < 120; n++) await target().open(item(`dw:filler${n}`), null, null);
    const key = 'dw:3333333333333333333333333333333333333333';
    await target().close(item(key), null, 'Fixed.');
    expect(issues().filter((i) => i.body.includes(githubMarker(key)))).toHaveLength(1);
    expect(issues()[0]?.state).toBe('closed');
  });

  it('the test item: one issue titled "DangleWatch test", closed at once', async () => {
    const before = issues().length;
    await target().test();
    expect(issues()).toHaveLength(before + 1);
    expect(issues().at(-1)).toMatchObject({ title: 'DangleWatch test', state: 'closed' });
  });

  it('a 429, a spent rate limit or a timeout is worth retrying; a 422 is not', async () => {
    gh.faults.push({ status: 429, body: { message: 'API rate limit exceeded' } });
    expect((await refusal(target().open(item('dw:4'), null, null))).retry).toBe(true);
    gh.faults.push({
      status: 403,
      body: { message: 'API rate limit exceeded for installation.' },
      headers: { 'x-ratelimit-remaining': '0' },
    });
    expect((await refusal(target().open(item('dw:4'), null, null))).retry).toBe(true);
    gh.faults.push('hang');
    expect((await refusal(target().open(item('dw:4'), null, null))).retry).toBe(true);
    gh.faults.push({
      status: 422,
      body: { message: 'Validation Failed', errors: [{ message: 'title is too long' }] },
    });
    const refused = await refusal(target().open(item('dw:4'), null, null));
    expect(refused.retry).toBe(false);
    expect(refused.message).toBe('GitHub refused: Validation Failed; title is too long');
  });
});

describe('Linear GraphQL against a loopback stand-in', () => {
  let linear: LinearFixture;
  let urls: IntegrationUrls;
  const TEAM = '2f9a4c3e-1111-4222-8333-444455556666';
  beforeAll(async () => {
    linear = await startLinear();
    linear.apiKeys.add('lin_api_fixture');
    linear.teams.set(TEAM, {
      key: 'OPS',
      states: [
        { id: 's-backlog', name: 'Backlog', type: 'backlog', position: 0 },
        { id: 's-todo', name: 'Todo', type: 'unstarted', position: 1 },
        { id: 's-done', name: 'Done', type: 'completed', position: 3 },
      ],
    });
    urls = { ...DEFAULT_INTEGRATION_URLS, linear: linear.url, timeoutMs: 1_000 };
  });
  afterAll(() => linear?.close());
  const target = (apiKey = 'lin_api_fixture', teamId = TEAM) =>
    targetOf('linear', { teamId }, { apiKey }, urls);

  it("checks the key and the team, refusing with Linear's words", async () => {
    await target().verify();
    expect((await refusal(target('lin_api_wrong').verify())).message).toBe(
      'Linear refused: You need to authenticate to access this operation.',
    );
    expect((await refusal(target('lin_api_fixture', 'no-team').verify())).message).toBe(
      'Linear refused: Could not find referenced Team.',
    );
  });

  it("files one issue, with the finding's link as its attachment, found again by it", async () => {
    const key = 'dw:5555555555555555555555555555555555555555';
    const ref = await target().open(item(key), null, null);
    expect(linear.issues).toHaveLength(1);
    expect(linear.issues[0]?.attachments).toEqual([{ url: item(key).link, title: `DangleWatch ${key}` }]);
    expect(await target().open(item(key), null, null)).toBe(ref);
    expect(await target().open(item(key), ref, null)).toBe(ref);
    expect(linear.issues).toHaveLength(1);
  });

  it('moves it to the completed state with a comment, and back when the finding returns', async () => {
    const key = 'dw:5555555555555555555555555555555555555555';
    const issue = linear.issues[0];
    if (!issue) throw new Error('no issue');
    await target().close(item(key), issue.id, 'Fixed.');
    expect(linear.stateType(issue)).toBe('completed');
    expect(issue.comments).toEqual(['Fixed.']);
    await target().close(item(key), null, 'Fixed.');
    expect(issue.comments).toHaveLength(1);
    await target().open(item(key), 'deleted-issue-id', 'The acceptance by Ann expired on 2026-12-22.');
    expect(linear.stateType(issue)).toBe('unstarted');
    expect(issue.comments.at(-1)).toBe('The acceptance by Ann expired on 2026-12-22.');
    expect(linear.issues).toHaveLength(1);
  });

  it('an attempt that died between filing and attaching is finished by the next, not filed twice', async () => {
    const key = 'dw:7777777777777777777777777777777777777777';
    const before = linear.issues.length;
    linear.operationFaults.set('Attach', { status: 503, body: {} });
    expect((await refusal(target().open(item(key), null, null))).retry).toBe(true);
    expect(linear.issues).toHaveLength(before + 1);
    expect(linear.issues.at(-1)?.attachments).toEqual([]);
    const ref = await target().open(item(key), null, null);
    expect(linear.issues).toHaveLength(before + 1);
    expect(ref).toBe(linear.issues.at(-1)?.id);
    expect(linear.issues.at(-1)?.attachments).toEqual([{ url: item(key).link, title: `DangleWatch ${key}` }]);
    // The id is the same on every attempt, and a UUID v4 as Linear takes it.
    expect(ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('files anew when the id it would choose is taken by an issue deleted since', async () => {
    const key = 'dw:8888888888888888888888888888888888888888';
    const ref = (await target().open(item(key), null, null)) ?? '';
    const deleted = linear.issues.findIndex((i) => i.id === ref);
    // Deleted in Linear, its id kept: lookups no longer find it, creating with it is refused.
    const [gone] = linear.issues.splice(deleted, 1);
    linear.operationFaults.set('Create', {
      status: 400,
      body: {
        errors: [{ message: 'Entity already exists', extensions: { code: 'INVALID_INPUT' } }],
        data: null,
      },
    });
    const again = await target().open(item(key), null, null);
    expect(again).not.toBe(gone?.id);
    expect(linear.issues.find((i) => i.id === again)?.attachments).toEqual([
      { url: item(key).link, title: `DangleWatch ${key}` },
    ]);
  });

  it('the test item: one issue titled "DangleWatch test", completed at once', async () => {
    await target().test();
    const test = linear.issues.at(-1);
    expect(test?.title).toBe('DangleWatch test');
    expect(test && linear.stateType(test)).toBe('completed');
  });

  it('RATELIMITED, a 5xx or a timeout is worth retrying', async () => {
    linear.faults.push(linearError('Rate limit exceeded', 'RATELIMITED'));
    const limited = await refusal(target().open(item('dw:6'), null, null));
    expect(limited.retry).toBe(true);
    expect(limited.message).toBe('Linear is rate limiting us: Rate limit exceeded');
    linear.faults.push({ status: 503, body: {} });
    expect((await refusal(target().open(item('dw:6'), null, null))).retry).toBe(true);
    linear.faults.push('hang');
    expect((await refusal(target().open(item('dw:6'), null, null))).retry).toBe(true);
  });
});

describe('Jira Cloud REST v3 against a loopback stand-in', () => {
  let jira: JiraFixture;
  let urls: IntegrationUrls;
  const settings = () => ({ siteUrl: jira.url, projectKey: 'OPS', issueType: 'Bug', doneTransition: 'Done' });
  const credentials = { email: 'ann@acme.com', apiToken: 'ATATT-fixture' };
  beforeAll(async () => {
    jira = await startJira();
    jira.accounts.add('ann@acme.com:ATATT-fixture');
    jira.projects.set('OPS', { issueTypes: ['Task', 'Bug'] });
    urls = { ...DEFAULT_INTEGRATION_URLS, allowPlainLoopback: true, timeoutMs: 1_000 };
  });
  afterAll(() => jira?.close());
  const target = (extra: Record<string, string> = {}, creds: Record<string, string> = credentials) =>
    targetOf('jira', { ...settings(), ...extra }, creds, urls);

  it("checks the account, the project and its issue type, refusing with Jira's words", async () => {
    await target().verify();
    expect((await refusal(target({}, { ...credentials, apiToken: 'wrong' }).verify())).message).toBe(
      'Jira refused: Client must be authenticated to access this resource.',
    );
    expect((await refusal(target({ projectKey: 'NOPE' }).verify())).message).toBe(
      "Jira refused: No project could be found with key 'NOPE'.",
    );
    expect((await refusal(target({ issueType: 'Epic' }).verify())).message).toMatch(
      /has no issue type “Epic”/,
    );
  });

  it('plain http only to loopback, and only when the server allows it', async () => {
    const strict = targetOf('jira', settings(), credentials, { ...urls, allowPlainLoopback: false });
    expect((await refusal(strict.verify())).message).toBe('The Jira site URL must use https://');
    const elsewhere = targetOf('jira', { ...settings(), siteUrl: 'http://192.0.2.10' }, credentials, urls);
    expect((await refusal(elsewhere.verify())).retry).toBe(false);
  });

  it('files one issue per finding, labelled dw-<hash>, found again through the JQL search', async () => {
    const key = 'dw:7777777777777777777777777777777777777777';
    const ref = await target().open(item(key), null, null);
    expect(jira.issues).toHaveLength(1);
    expect(jira.issues[0]?.labels).toEqual(['danglewatch', `dw-${key.slice(3)}`]);
    expect(jiraLabel(key)).toBe(`dw-${key.slice(3)}`);
    expect(await target().open(item(key), null, null)).toBe(ref);
    expect(await target().open(item(key), ref, null)).toBe(ref);
    expect(jira.issues).toHaveLength(1);
    expect(jira.requests.some((r) => r.path === '/rest/api/3/search/jql')).toBe(true);
  });

  it("resolved: a comment and the admin's transition; back: a comment and out of done", async () => {
    const key = 'dw:7777777777777777777777777777777777777777';
    await target().close(item(key), null, 'Fixed.');
    expect(jira.issues[0]?.status).toBe('Done');
    expect(jira.issues[0]?.comments.map(adfText)).toEqual(['Fixed.']);
    await target().close(item(key), null, 'Fixed.');
    expect(jira.issues[0]?.comments).toHaveLength(1);
    await target().open(item(key), 'OPS-404', 'The acceptance by Ann expired on 2026-12-22.');
    expect(jira.issues[0]?.status).toBe('To Do');
    expect(adfText(jira.issues[0]?.comments.at(-1))).toBe('The acceptance by Ann expired on 2026-12-22.');
    expect(jira.issues).toHaveLength(1);
  });

  it('a transition that does not exist is refused, saying which', async () => {
    const key = 'dw:8888888888888888888888888888888888888888';
    await target().open(item(key), null, null);
    const refused = await refusal(target({ doneTransition: 'Ship it' }).close(item(key), null, 'Fixed.'));
    expect(refused.message).toBe("Jira refused: no transition named “Ship it” from this issue's status");
  });

  it('the test item: one issue titled "DangleWatch test", done at once', async () => {
    await target().test();
    expect(jira.issues.at(-1)).toMatchObject({ summary: 'DangleWatch test', status: 'Done' });
  });

  it('a 429, a 5xx or a timeout is worth retrying', async () => {
    jira.faults.push({ status: 429, body: {}, headers: { 'retry-after': '1' } });
    expect((await refusal(target().open(item('dw:9'), null, null))).retry).toBe(true);
    jira.faults.push({ status: 503, body: {} });
    expect((await refusal(target().open(item('dw:9'), null, null))).retry).toBe(true);
    jira.faults.push('hang');
    expect((await refusal(target().open(item('dw:9'), null, null))).retry).toBe(true);
  });

  it('offers the projects page by page, and a project’s issue types (no sub-tasks) and done statuses', async () => {
    for (const key of ['ALPHA', 'BETA', 'GAMMA', 'ZED'])
      jira.projects.set(key, { issueTypes: ['Task'], name: `Team ${key}` });
    jira.projects.set('SUP', {
      issueTypes: ['Task', 'Bug', 'Sub-task', 'Story', 'Incident'],
      name: 'Support',
    });
    jira.statusCategory.Closed = 'done';
    jira.pageSize = 2;
    try {
      const none = await jiraChoices(jira.url, credentials, undefined, urls);
      expect(none.projects).toEqual([
        { key: 'ALPHA', name: 'Team ALPHA' },
        { key: 'BETA', name: 'Team BETA' },
        { key: 'GAMMA', name: 'Team GAMMA' },
        { key: 'OPS', name: 'OPS' },
        { key: 'SUP', name: 'Support' },
        { key: 'ZED', name: 'Team ZED' },
      ]);
      expect(none).toMatchObject({ issueTypes: [], transitions: [] });
      const searches = jira.requests.filter((r) => r.path === '/rest/api/3/project/search');
      expect(searches.map((r) => r.query.get('startAt'))).toEqual(['0', '2', '4']);
      const sup = await jiraChoices(`${jira.url}/`, credentials, 'SUP', urls);
      expect(sup.issueTypes.map((t) => t.name)).toEqual(['Task', 'Bug', 'Story', 'Incident']);
      expect(sup.issueTypes[0]?.id).toBe('10000');
      expect(sup.transitions).toEqual([{ name: 'Done' }, { name: 'Closed' }]);
    } finally {
      jira.pageSize = 50;
      delete jira.statusCategory.Closed;
      for (const key of ['ALPHA', 'BETA', 'GAMMA', 'ZED', 'SUP']) jira.projects.delete(key);
    }
  });

  it("choices: a refused credential in Jira's words; 429 and a timeout worth retrying; https only", async () => {
    const wrong = await refusal(
      jiraChoices(jira.url, { ...credentials, apiToken: 'wrong' }, undefined, urls),
    );
    expect(wrong).toMatchObject({
      message: 'Jira refused: Client must be authenticated to access this resource.',
      retry: false,
    });
    expect((await refusal(jiraChoices(jira.url, credentials, 'NOPE', urls))).message).toBe(
      'Jira refused: The value provided for projectIdOrKey is invalid.',
    );
    jira.faults.push({ status: 429, body: {}, headers: { 'retry-after': '1' } });
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, urls))).retry).toBe(true);
    jira.faults.push('hang');
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, urls))).message).toBe(
      'Jira did not answer within 1 s',
    );
    const strict = { ...urls, allowPlainLoopback: false };
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, strict))).message).toBe(
      'The Jira site URL must use https://',
    );
  });
});
