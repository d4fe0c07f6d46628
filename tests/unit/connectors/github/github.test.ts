import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { github, githubMarker } from '../../../../src/connectors/github/github.ts';
import { type GitHubFixture, startGitHub } from '../../../fixtures/trackers/github.ts';
import { item, refusal } from '../../../helpers/tracker.ts';

const TOKEN = 'ghp_fixture_token';

describe('GitHub Issues against a loopback stand-in', () => {
  let gh: GitHubFixture;
  beforeAll(async () => {
    gh = await startGitHub();
    gh.tokens.add(TOKEN);
    gh.repos.set('acme/infra', { hasIssues: true, issues: [] });
    gh.repos.set('acme/no-issues', { hasIssues: false, issues: [] });
  });
  afterAll(() => gh?.close());
  const target = (repository = 'acme/infra', token = TOKEN) =>
    github({ repository }, { token }, gh.url, { timeoutMs: 1_000 });
  const issues = () => gh.repos.get('acme/infra')?.issues ?? [];

  it("checks the token and the repository, refusing with GitHub's words", async () => {
    await target().verify();
    expect(await refusal(target('acme/infra', 'nope').verify())).toMatchObject({
      message: 'GitHub did not accept the token: it may be mistyped, expired or revoked',
      detail: 'Bad credentials',
    });
    // Not "GitHub refused: Not Found": what is missing, and what to check, with GitHub's words kept.
    expect(await refusal(target('acme/missing').verify())).toMatchObject({
      message:
        'GitHub shows no repository acme/missing to this token: check its spelling, and that the token may read it',
      detail: 'Not Found',
    });
    expect((await refusal(target('acme/no-issues').verify())).message).toBe(
      'Issues are turned off in acme/no-issues on GitHub',
    );
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
    expect(refused.message).toBe('GitHub refused the issue as invalid for acme/infra');
    expect(refused.detail).toBe('Validation Failed; title is too long');
  });
});
