import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linear as connect, resolveLinearTeam } from '../../../../src/connectors/linear/linear.ts';
import { type LinearFixture, linearError, startLinear } from '../../../fixtures/trackers/linear.ts';
import { item, refusal } from '../../../helpers/tracker.ts';

describe('Linear GraphQL against a loopback stand-in', () => {
  let linear: LinearFixture;
  const TEAM = '2f9a4c3e-1111-4222-8333-444455556666';
  beforeAll(async () => {
    linear = await startLinear();
    linear.apiKeys.add('lin_api_fixture');
    linear.teams.set(TEAM, {
      key: 'OPS',
      name: 'Operations',
      states: [
        { id: 's-backlog', name: 'Backlog', type: 'backlog', position: 0 },
        { id: 's-todo', name: 'Todo', type: 'unstarted', position: 1 },
        { id: 's-done', name: 'Done', type: 'completed', position: 3 },
      ],
    });
  });
  afterAll(() => linear?.close());
  const target = (apiKey = 'lin_api_fixture', teamId = TEAM) =>
    connect({ teamId }, { apiKey }, linear.url, { timeoutMs: 1_000 });

  it("checks the key and the team, refusing with Linear's words", async () => {
    await target().verify();
    expect(await refusal(target('lin_api_wrong').verify())).toMatchObject({
      message: 'Linear did not accept the API key: it may be mistyped or revoked',
      detail: 'You need to authenticate to access this operation.',
      failure: 'credentials',
    });
    expect((await refusal(target('lin_api_fixture', 'no-team').verify())).detail).toBe(
      'Could not find referenced Team.',
    );
  });

  it('finds the team by its key, name or id, and offers the teams the key sees when none matches', async () => {
    const resolve = (wanted: string, apiKey = 'lin_api_fixture') =>
      resolveLinearTeam(linear.url, apiKey, wanted, { timeoutMs: 1_000 });
    const team = { id: TEAM, key: 'OPS', name: 'Operations' };
    for (const wanted of ['OPS', 'ops', ' Operations ', TEAM, TEAM.toUpperCase()])
      expect(await resolve(wanted), wanted).toEqual(team);
    const none = await refusal(resolve('SEC'));
    expect(none).toMatchObject({ failure: 'not-found', retry: false });
    expect(none.message).toBe(
      "This Linear API key sees no team “SEC”: give one of its teams' keys: OPS (Operations)",
    );
    expect((await refusal(resolve('OPS', 'lin_api_wrong'))).failure).toBe('credentials');
  });

  it('says in plain words that a team kept as a key is not one Linear files to', async () => {
    const error = await refusal(
      target('lin_api_fixture', 'OPS').open(item('dw:7777777777777777777777777777777777777777'), null, null),
    );
    expect(error.message).toBe(
      "Linear does not know this integration's team: remove it and connect it again with the team's key",
    );
    expect(error.detail).toBe('teamId must be a UUID.');
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
    expect(limited.message).toBe('Linear is rate limiting us; it will be tried again later');
    expect(limited.detail).toBe('Rate limit exceeded');
    linear.faults.push({ status: 503, body: {} });
    expect((await refusal(target().open(item('dw:6'), null, null))).retry).toBe(true);
    linear.faults.push('hang');
    expect((await refusal(target().open(item('dw:6'), null, null))).retry).toBe(true);
  });
});
