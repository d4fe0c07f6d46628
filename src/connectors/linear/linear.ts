import { createHash } from 'node:crypto';
import { TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { ConnectorError } from '../http/error.ts';
import { type Json, type TrackerCallOptions, trackerCall } from '../tracker/call.ts';
import { TEST_BODY, type Tracker } from '../tracker/tracker.ts';

export const LINEAR_API_URL = 'https://api.linear.app';

/** Linear's answer to one GraphQL call: its data, or its errors as ConnectorErrors (RATELIMITED retried). */
async function graphql(
  url: string,
  apiKey: string,
  query: string,
  variables: Json,
  options: TrackerCallOptions,
): Promise<Json> {
  let body: Json;
  try {
    body = await trackerCall(
      'Linear',
      url,
      { method: 'POST', headers: { authorization: apiKey }, body: { query, variables } },
      options,
    );
  } catch (error) {
    // Linear answers errors, a rate limit too, with HTTP 400 and the GraphQL errors; down is down.
    if (!(error instanceof ConnectorError) || error.retry || !error.body || typeof error.body !== 'object')
      throw error;
    body = error.body as Json;
  }
  const errors = Array.isArray(body.errors) ? (body.errors as Json[]) : [];
  if (errors.length) {
    const limited = errors.some((e) =>
      /ratelimit/i.test(String((e.extensions as Json | undefined)?.code ?? '')),
    );
    const words = errors
      .map((e) => String((e.extensions as Json | undefined)?.userPresentableMessage ?? e.message ?? ''))
      .filter(Boolean)
      .join('; ');
    const unauthenticated = errors.some(
      (e) => String((e.extensions as Json | undefined)?.code ?? '') === 'AUTHENTICATION_ERROR',
    );
    if (limited)
      throw new ConnectorError('Linear', 'unavailable', {
        message: 'Linear is rate limiting us; it will be tried again later',
        detail: words,
      });
    if (unauthenticated)
      throw new ConnectorError('Linear', 'credentials', {
        message: 'Linear did not accept the API key: it may be mistyped or revoked',
        detail: words,
      });
    throw new ConnectorError('Linear', 'refused', { detail: words });
  }
  return (body.data ?? {}) as Json;
}

/** A team as Linear names it: its id (a UUID), its key (`SEC`, the issues' prefix) and its name. */
export interface LinearTeam {
  id: string;
  key: string;
  name: string;
}

/** How many teams one call reads: more than a workspace has. */
const TEAMS_READ = 250;

/** The teams the API key sees. */
export async function linearTeams(
  base: string,
  apiKey: string,
  options: TrackerCallOptions,
): Promise<LinearTeam[]> {
  const data = await graphql(
    `${base.replace(/\/$/, '')}/graphql`,
    apiKey,
    'query Teams($first: Int!) { teams(first: $first) { nodes { id key name } } }',
    { first: TEAMS_READ },
    options,
  );
  const nodes = ((data.teams as Json | undefined)?.nodes ?? []) as Json[];
  return nodes.map((n) => ({ id: String(n.id), key: String(n.key), name: String(n.name) }));
}

/**
 * The team a person named at connect, by its key (`SEC`), its name or its id, as Linear's issue
 * calls need it (by id: a key there fails every ticket with "teamId must be a UUID"). One the key
 * does not see is refused with the teams it does see, to pick from.
 */
export async function resolveLinearTeam(
  base: string,
  apiKey: string,
  wanted: string,
  options: TrackerCallOptions,
): Promise<LinearTeam> {
  const teams = await linearTeams(base, apiKey, options);
  const named = wanted.trim().toLowerCase();
  const team =
    teams.find((t) => t.id.toLowerCase() === named) ??
    teams.find((t) => t.key.toLowerCase() === named) ??
    teams.find((t) => t.name.toLowerCase() === named);
  if (team) return team;
  const offered = teams.map((t) => `${t.key} (${t.name})`).join(', ');
  throw new ConnectorError('Linear', 'not-found', {
    message: teams.length
      ? `This Linear API key sees no team “${wanted}”: give one of its teams' keys: ${offered}`
      : 'This Linear API key sees no team: use a key of a member of the team that should get the issues',
  });
}

/** How a Linear team is shown once connected: its name and key. */
export const linearTeamLabel = (team: LinearTeam) => `${team.name} (${team.key})`;

/** A UUID v4 made from the team and the finding's key: the same for every attempt to file it. */
function stableIssueId(teamId: string, key: string): string {
  const hex = createHash('sha256').update(`danglewatch ${teamId} ${key}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Linear: one issue per finding, found again by its attachment, whose URL is the finding's dashboard
 * link (carrying its key); resolved → the team's completed state, back → its unstarted one.
 */
export function linear(
  settings: Json,
  credentials: Json,
  base: string,
  options: TrackerCallOptions,
): Tracker {
  const teamId = String(settings.teamId);
  const gql = (query: string, variables: Json = {}) =>
    graphql(`${base.replace(/\/$/, '')}/graphql`, String(credentials.apiKey), query, variables, options);
  const stateOf = async (type: 'completed' | 'unstarted') => {
    const data = await gql(
      'query TeamStates($id: String!) { team(id: $id) { states { nodes { id name type position } } } }',
      { id: teamId },
    );
    const nodes = (((data.team as Json | undefined)?.states as Json | undefined)?.nodes ?? []) as Json[];
    const first = (wanted: string) =>
      nodes.filter((n) => n.type === wanted).sort((a, b) => Number(a.position) - Number(b.position))[0];
    // Back to work: the first unstarted state ("Todo"), else the backlog.
    const state = first(type) ?? (type === 'unstarted' ? first('backlog') : undefined);
    if (!state)
      throw new ConnectorError('Linear', 'refused', { message: `The Linear team has no ${type} state` });
    return String(state.id);
  };
  const find = async (link: string): Promise<{ id: string; stateType: string } | null> => {
    const data = await gql(
      'query Attached($url: String!) { attachmentsForURL(url: $url) { nodes { id issue { id state { type } } } } }',
      { url: link },
    );
    const nodes = ((data.attachmentsForURL as Json | undefined)?.nodes ?? []) as Json[];
    const issue = nodes.map((n) => n.issue as Json | undefined).find(Boolean);
    return issue
      ? { id: String(issue.id), stateType: String((issue.state as Json | undefined)?.type ?? '') }
      : null;
  };
  const byId = async (id: string) => {
    const data = await gql('query Issue($id: String!) { issue(id: $id) { id state { type } } }', { id });
    const issue = data.issue as Json | undefined;
    return issue
      ? { id: String(issue.id), stateType: String((issue.state as Json | undefined)?.type ?? '') }
      : null;
  };
  // A kept reference to an issue that was deleted: look it up by its attachment instead.
  const gone = (error: unknown) => {
    if (error instanceof ConnectorError && !error.retry) return null;
    throw error;
  };
  const done = (stateType: string) => stateType === 'completed' || stateType === 'canceled';
  const create = async (title: string, description: string, id?: string) => {
    const data = await gql(
      'mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier } } }',
      { input: { teamId, title, description, ...(id ? { id } : {}) } },
    ).catch((error) => {
      // Kept from before teams were resolved at connect: a key where Linear takes only an id.
      if (error instanceof ConnectorError && error.failure === 'refused' && /teamId/.test(error.detail ?? ''))
        throw error.reworded(
          "Linear does not know this integration's team: remove it and connect it again with the team's key",
        );
      throw error;
    });
    const issue = (data.issueCreate as Json | undefined)?.issue as Json | undefined;
    if (!issue?.id) throw new ConnectorError('Linear', 'malformed', { message: 'Linear created no issue' });
    return String(issue.id);
  };
  const move = (id: string, stateId: string) =>
    gql(
      'mutation Move($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }',
      {
        id,
        input: { stateId },
      },
    );
  const comment = (issueId: string, body: string) =>
    gql('mutation Comment($input: CommentCreateInput!) { commentCreate(input: $input) { success } }', {
      input: { issueId, body },
    });
  return {
    async verify() {
      const data = await gql('query Team($id: String!) { team(id: $id) { id name } }', { id: teamId });
      if (!data.team)
        throw new ConnectorError('Linear', 'not-found', { message: `Linear has no team ${teamId}` });
    },
    async test() {
      const id = await create(TEST_ITEM_TITLE, TEST_BODY);
      await move(id, await stateOf('completed'));
    },
    async open(item, ref, reason) {
      const found = (ref ? await byId(ref).catch(gone) : null) ?? (await find(item.link));
      if (!found) {
        // The id is ours, from the finding's key: an attempt that died between filing the issue and
        // attaching its link finds the issue by that id next time, instead of filing it twice.
        let id = stableIssueId(teamId, item.key);
        const filed = await byId(id).catch(gone);
        if (!filed) {
          const description = `${item.body}\n\n[The finding in DangleWatch](${item.link})`;
          try {
            await create(item.title, description, id);
          } catch (error) {
            // Linear keeps the id of an issue deleted since (in its trash): a new issue, its id Linear's.
            if (!(error instanceof ConnectorError) || error.retry) throw error;
            id = await create(item.title, description);
          }
        }
        await gql(
          'mutation Attach($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success attachment { id } } }',
          { input: { issueId: id, url: item.link, title: `DangleWatch ${item.key}` } },
        );
        if (!filed || !done(filed.stateType)) return id;
        await comment(id, reason ?? 'The finding is open again.');
        await move(id, await stateOf('unstarted'));
        return id;
      }
      if (done(found.stateType)) {
        await comment(found.id, reason ?? 'The finding is open again.');
        await move(found.id, await stateOf('unstarted'));
      } else if (reason) {
        await comment(found.id, reason);
      }
      return found.id;
    },
    async close(item, ref, reason) {
      const found = (ref ? await byId(ref).catch(gone) : null) ?? (await find(item.link));
      if (!found) return null;
      if (done(found.stateType)) return found.id;
      await comment(found.id, reason);
      await move(found.id, await stateOf('completed'));
      return found.id;
    },
  };
}
