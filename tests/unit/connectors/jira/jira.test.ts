import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BYTES } from '../../../../src/connectors/http/client.ts';
import {
  jira as connect,
  type JiraSiteOptions,
  jiraChoices,
  jiraLabel,
} from '../../../../src/connectors/jira/jira.ts';
import { adfText, type JiraFixture, startJira } from '../../../fixtures/trackers/jira.ts';
import { item, refusal } from '../../../helpers/tracker.ts';

describe('Jira Cloud REST v3 against a loopback stand-in', () => {
  let jira: JiraFixture;
  const site: JiraSiteOptions = {
    timeoutMs: 1_000,
    userHost: { resolvers: [], allowPrivate: ['127.0.0.1', '::1'] },
  };
  const settings = () => ({ siteUrl: jira.url, projectKey: 'OPS', issueType: 'Bug', doneTransition: 'Done' });
  const credentials = { email: 'ann@acme.com', apiToken: 'ATATT-fixture' };
  beforeAll(async () => {
    jira = await startJira();
    jira.accounts.add('ann@acme.com:ATATT-fixture');
    jira.projects.set('OPS', { issueTypes: ['Task', 'Bug'] });
  });
  afterAll(() => jira?.close());
  const target = (extra: Record<string, string> = {}, creds: Record<string, string> = credentials) =>
    connect({ ...settings(), ...extra }, creds, site);

  it("checks the account, the project and its issue type, refusing with Jira's words", async () => {
    await target().verify();
    expect(await refusal(target({}, { ...credentials, apiToken: 'wrong' }).verify())).toMatchObject({
      message: 'Jira did not accept the credential',
      detail: 'Client must be authenticated to access this resource.',
    });
    expect(await refusal(target({ projectKey: 'NOPE' }).verify())).toMatchObject({
      message: 'Jira could not find what was asked for',
      detail: "No project could be found with key 'NOPE'.",
    });
    expect(await refusal(target({ issueType: 'Epic' }).verify())).toMatchObject({
      message: 'The Jira project OPS has no issue type “Epic”',
      detail: 'it has Task, Bug',
    });
  });

  it('plain http only to loopback, and only when the server allows it', async () => {
    const strict = connect(settings(), credentials, {
      ...site,
      userHost: { resolvers: [], allowPrivate: false },
    });
    expect((await refusal(strict.verify())).message).toBe('The Jira URL must use https://');
    const elsewhere = connect({ ...settings(), siteUrl: 'http://192.0.2.10' }, credentials, site);
    expect(await refusal(elsewhere.verify())).toMatchObject({ failure: 'address', retry: false });
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
    expect(refused.message).toBe("Jira has no transition named “Ship it” from this issue's status");
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
      const none = await jiraChoices(jira.url, credentials, undefined, site);
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
      const sup = await jiraChoices(`${jira.url}/`, credentials, 'SUP', site);
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
      jiraChoices(jira.url, { ...credentials, apiToken: 'wrong' }, undefined, site),
    );
    expect(wrong).toMatchObject({
      message: 'Jira did not accept the credential',
      detail: 'Client must be authenticated to access this resource.',
      retry: false,
    });
    expect((await refusal(jiraChoices(jira.url, credentials, 'NOPE', site))).detail).toBe(
      'The value provided for projectIdOrKey is invalid.',
    );
    jira.faults.push({ status: 429, body: {}, headers: { 'retry-after': '1' } });
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, site))).retry).toBe(true);
    jira.faults.push('hang');
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, site))).message).toBe(
      'Jira did not answer within 1 s',
    );
    const strict = { ...site, userHost: { resolvers: [], allowPrivate: false as const } };
    expect((await refusal(jiraChoices(jira.url, credentials, undefined, strict))).message).toBe(
      'The Jira URL must use https://',
    );
  });
});

describe('a Jira site that streams an endless answer', () => {
  let server: http.Server;
  let url = '';
  let sent = 0;
  beforeAll(async () => {
    // 256 MB of a JSON array, written only as fast as the client reads: a client that reads it
    // whole holds all of it; one that stops at its bound makes the server stop soon after.
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from(`${'{"key":"OPS","name":"Operations"},'.repeat(2048)}`);
      let closed = false;
      res.on('close', () => {
        closed = true;
      });
      res.write('{"values":[');
      const pump = () => {
        while (!closed && sent < 256 * 2 ** 20) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('{}]}');
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails the call in plain words at 1 MB, and the process does not grow by what it sent', async () => {
    const site: JiraSiteOptions = {
      timeoutMs: 20_000,
      userHost: { resolvers: [], allowPrivate: ['127.0.0.1'] },
    };
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const error = await refusal(
        jiraChoices(url, { email: 'ann@acme.com', apiToken: 'ATATT-fixture' }, undefined, site),
      );
      expect(error).toMatchObject({
        failure: 'too-large',
        message: 'Jira sent an answer larger than DangleWatch reads',
        detail: `the answer is larger than ${ANSWER_BYTES} bytes`,
        retry: false,
      });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(peak - before).toBeLessThan(50 * 2 ** 20);
    // The server stopped soon after the client did: a few socket buffers past the bound, not 256 MB.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toBeLessThan(32 * 2 ** 20);
  });
});
