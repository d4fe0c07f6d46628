import { createHash, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { FindingStatus } from '../../model/contract.ts';
import { type IntegrationKind, type JiraChoices, TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { keyHash } from '../findings/key.ts';
import { checkWebhookTarget } from '../webhooks/target.ts';

/** What each service's base URL is, unless the environment says otherwise (tests run loopback ones). */
export interface IntegrationUrls {
  pagerduty: string;
  github: string;
  linear: string;
  /** Jira's is the admin's own site: plain http only to loopback, only when this allows it. */
  allowPlainLoopback: boolean;
  /** Per request; a service slower than this is tried again later. */
  timeoutMs?: number;
}

export const DEFAULT_INTEGRATION_URLS: IntegrationUrls = {
  pagerduty: 'https://events.pagerduty.com',
  github: 'https://api.github.com',
  linear: 'https://api.linear.app',
  allowPlainLoopback: false,
};

const TIMEOUT_MS = 10_000;

/**
 * A service said no, or could not be reached. `retry`: worth trying again later (429, 5xx, a
 * timeout, a network error); otherwise the service refused what we sent and says why in `message`.
 */
export class TargetError extends Error {
  readonly retry: boolean;
  /** The service's answer, when it gave one. */
  readonly body: unknown;
  constructor(message: string, retry: boolean, body?: unknown) {
    super(message);
    this.retry = retry;
    this.body = body;
  }
}

/** One finding as a ticket: the words every tracker shows, and its key. */
export interface TicketItem {
  key: string;
  title: string;
  body: string;
  status: FindingStatus;
  subdomain: string;
  domain: string;
  service: string;
  target: string;
  /** The finding's dashboard link, carrying its key. */
  link: string;
}

/**
 * One integration's service: check the credential at connect, file a test item, and bring a
 * finding's ticket to open or closed. `ref` is the tracker's own reference kept from an earlier
 * delivery (null when none is kept: the ticket is looked up by the key, never by its title).
 */
export interface Target {
  verify(): Promise<void>;
  test(): Promise<void>;
  open(item: TicketItem, ref: string | null, reason: string | null): Promise<string>;
  close(item: TicketItem, ref: string | null, reason: string): Promise<string | null>;
}

type Json = Record<string, unknown>;
type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** A service's own words for a refusal, from the shapes the four services answer with. */
function reasonOf(body: unknown, fallback: string): string {
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Json;
  const parts: string[] = [];
  if (typeof b.message === 'string') parts.push(b.message);
  if (Array.isArray(b.errors)) {
    for (const e of b.errors) {
      if (typeof e === 'string') parts.push(e);
      else if (e && typeof e === 'object' && typeof (e as Json).message === 'string')
        parts.push((e as Json).message as string);
    }
  } else if (b.errors && typeof b.errors === 'object') {
    parts.push(...Object.values(b.errors as Json).filter((v): v is string => typeof v === 'string'));
  }
  if (Array.isArray(b.errorMessages))
    parts.push(...b.errorMessages.filter((v): v is string => typeof v === 'string'));
  return parts.length ? parts.join('; ') : fallback;
}

/** One HTTP call to a service: JSON in and out, a timeout, and its refusals as TargetError. */
async function call(
  service: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  timeoutMs: number,
  fetchWith: Fetch = fetch,
): Promise<Json> {
  let response: Response;
  try {
    response = await fetchWith(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        'user-agent': 'DangleWatch/1',
        ...init.headers,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof TargetError) throw error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new TargetError(
      timedOut ? `${service} did not answer within ${timeoutMs / 1000} s` : `${service} could not be reached`,
      true,
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  // GitHub says a spent rate limit with a 403 and no requests left, or a Retry-After.
  const limited =
    response.status === 429 ||
    (response.status === 403 &&
      (response.headers.get('x-ratelimit-remaining') === '0' || response.headers.has('retry-after')));
  if (limited) throw new TargetError(`${service} is rate limiting us (HTTP ${response.status})`, true);
  if (response.status >= 500) throw new TargetError(`${service} failed (HTTP ${response.status})`, true);
  if (response.status >= 300) {
    throw new TargetError(`${service} refused: ${reasonOf(body, `HTTP ${response.status}`)}`, false, body);
  }
  return (body && typeof body === 'object' ? body : {}) as Json;
}

const SEVERITY: Record<FindingStatus, string> = { claimable: 'critical', likely: 'error', review: 'warning' };

/** PagerDuty Events API v2: the finding's key is the dedup key; trigger when open, resolve when closed. */
function pagerduty(credentials: Json, urls: IntegrationUrls): Target {
  const timeout = urls.timeoutMs ?? TIMEOUT_MS;
  const send = (event: Json) =>
    call(
      'PagerDuty',
      `${urls.pagerduty.replace(/\/$/, '')}/v2/enqueue`,
      { method: 'POST', headers: {}, body: { routing_key: credentials.routingKey, ...event } },
      timeout,
    );
  const testPair = async () => {
    const dedup = `dw-test-${randomUUID()}`;
    await send({
      event_action: 'trigger',
      dedup_key: dedup,
      payload: {
        summary: `${TEST_ITEM_TITLE}: this integration works`,
        source: 'danglewatch',
        severity: 'info',
      },
    });
    await send({ event_action: 'resolve', dedup_key: dedup });
  };
  return {
    verify: testPair,
    test: testPair,
    async open(item) {
      await send({
        event_action: 'trigger',
        dedup_key: item.key,
        payload: {
          summary: item.title.slice(0, 1024),
          source: item.subdomain,
          severity: SEVERITY[item.status],
          component: item.service,
          custom_details: {
            key: item.key,
            domain: item.domain,
            target: item.target,
            status: item.status,
            details: item.body,
          },
        },
        links: [{ href: item.link, text: 'The finding in DangleWatch' }],
      });
      return item.key;
    },
    async close(item, _ref, reason) {
      await send({
        event_action: 'resolve',
        dedup_key: item.key,
        payload: { summary: reason.slice(0, 1024), source: item.subdomain, severity: SEVERITY[item.status] },
      });
      return item.key;
    },
  };
}

/** The hidden line a GitHub issue's body carries: how the issue is found again. */
export const githubMarker = (key: string) => `<!-- ${key} -->`;
const GITHUB_LABEL = 'danglewatch';

/** GitHub Issues: one issue per finding, found again by the marker in its body; closed when fixed. */
function github(settings: Json, credentials: Json, urls: IntegrationUrls): Target {
  const timeout = urls.timeoutMs ?? TIMEOUT_MS;
  const repo = String(settings.repository);
  const base = `${urls.github.replace(/\/$/, '')}/repos/${repo}`;
  const headers = {
    authorization: `Bearer ${credentials.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const gh = (path: string, method = 'GET', body?: unknown) =>
    call('GitHub', `${base}${path}`, { method, headers, body }, timeout);
  /** The issue carrying the key's marker, open or closed: our label's issues, page by page. */
  const find = async (key: string): Promise<{ number: number; state: string } | null> => {
    const marker = githubMarker(key);
    for (let page = 1; page <= 50; page++) {
      const list = (await call(
        'GitHub',
        `${base}/issues?state=all&labels=${GITHUB_LABEL}&per_page=100&page=${page}`,
        { method: 'GET', headers },
        timeout,
      )) as unknown;
      const issues = Array.isArray(list) ? (list as Json[]) : [];
      const hit = issues.find(
        (i) => !i.pull_request && typeof i.body === 'string' && i.body.includes(marker),
      );
      if (hit) return { number: Number(hit.number), state: String(hit.state) };
      if (issues.length < 100) return null;
    }
    return null;
  };
  const issue = async (ref: string | null, key: string) => {
    if (ref) {
      const found = await gh(`/issues/${Number(ref)}`);
      return { number: Number(found.number), state: String(found.state) };
    }
    return find(key);
  };
  return {
    async verify() {
      const found = await gh('');
      if (found.has_issues === false)
        throw new TargetError(`GitHub refused: issues are turned off in ${repo}`, false);
    },
    async test() {
      const made = await gh('/issues', 'POST', {
        title: TEST_ITEM_TITLE,
        body: 'A test from DangleWatch: this integration works. Closed at once.',
      });
      await gh(`/issues/${Number(made.number)}`, 'PATCH', { state: 'closed', state_reason: 'completed' });
    },
    async open(item, ref, reason) {
      const found = await issue(ref, item.key);
      if (!found) {
        const made = await gh('/issues', 'POST', {
          title: item.title,
          body: `${item.body}\n\n[The finding in DangleWatch](${item.link})\n\n${githubMarker(item.key)}`,
          labels: [GITHUB_LABEL],
        });
        return String(made.number);
      }
      if (found.state === 'closed') {
        await gh(`/issues/${found.number}/comments`, 'POST', {
          body: reason ?? 'The finding is open again.',
        });
        await gh(`/issues/${found.number}`, 'PATCH', { state: 'open' });
      } else if (reason) {
        await gh(`/issues/${found.number}/comments`, 'POST', { body: reason });
      }
      return String(found.number);
    },
    async close(item, ref, reason) {
      const found = await issue(ref, item.key);
      if (!found) return null;
      if (found.state !== 'closed') {
        await gh(`/issues/${found.number}/comments`, 'POST', { body: reason });
        await gh(`/issues/${found.number}`, 'PATCH', { state: 'closed', state_reason: 'completed' });
      }
      return String(found.number);
    },
  };
}

/** Linear's answer to one GraphQL call: its data, or its errors as TargetError (RATELIMITED retried). */
async function graphql(
  url: string,
  apiKey: string,
  query: string,
  variables: Json,
  timeoutMs: number,
): Promise<Json> {
  let body: Json;
  try {
    body = await call(
      'Linear',
      url,
      { method: 'POST', headers: { authorization: apiKey }, body: { query, variables } },
      timeoutMs,
    );
  } catch (error) {
    // Linear answers errors, a rate limit too, with HTTP 400 and the GraphQL errors.
    if (!(error instanceof TargetError) || !error.body || typeof error.body !== 'object') throw error;
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
    throw new TargetError(
      limited ? `Linear is rate limiting us: ${words}` : `Linear refused: ${words}`,
      limited,
    );
  }
  return (body.data ?? {}) as Json;
}

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
function linear(settings: Json, credentials: Json, urls: IntegrationUrls): Target {
  const timeout = urls.timeoutMs ?? TIMEOUT_MS;
  const teamId = String(settings.teamId);
  const gql = (query: string, variables: Json = {}) =>
    graphql(
      `${urls.linear.replace(/\/$/, '')}/graphql`,
      String(credentials.apiKey),
      query,
      variables,
      timeout,
    );
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
    if (!state) throw new TargetError(`Linear refused: the team has no ${type} state`, false);
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
    if (error instanceof TargetError && !error.retry) return null;
    throw error;
  };
  const done = (stateType: string) => stateType === 'completed' || stateType === 'canceled';
  const create = async (title: string, description: string, id?: string) => {
    const data = await gql(
      'mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier } } }',
      { input: { teamId, title, description, ...(id ? { id } : {}) } },
    );
    const issue = (data.issueCreate as Json | undefined)?.issue as Json | undefined;
    if (!issue?.id) throw new TargetError('Linear refused: no issue was created', false);
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
      if (!data.team) throw new TargetError(`Linear refused: no team ${teamId}`, false);
    },
    async test() {
      const id = await create(
        TEST_ITEM_TITLE,
        'A test from DangleWatch: this integration works. Closed at once.',
      );
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
            if (!(error instanceof TargetError) || error.retry) throw error;
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

/** Atlassian Document Format: the one shape Jira Cloud REST v3 takes rich text in. */
const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: text
    .split(/\n{2,}/)
    .map((para) => ({ type: 'paragraph', content: para ? [{ type: 'text', text: para }] : [] })),
});

/**
 * A fetch to the admin's own Jira site: https only (plain http to loopback only when the server
 * allows private addresses, for tests), the name checked to resolve to public addresses only, and
 * the connection made to the address checked and no other (the webhooks' rule).
 */
function siteFetch(urls: IntegrationUrls): Fetch {
  return async (raw, init) => {
    if (new URL(raw).protocol !== 'https:' && !urls.allowPlainLoopback)
      throw new TargetError('The Jira site URL must use https://', false);
    const target = await checkWebhookTarget(raw, urls.allowPlainLoopback ? ['127.0.0.1', '::1'] : false);
    if (!target.ok)
      throw new TargetError(`The Jira site is refused: ${target.message.replace(/webhook /i, '')}`, false);
    const connector = buildConnector({ timeout: urls.timeoutMs ?? TIMEOUT_MS });
    const host = target.url.hostname.replace(/^\[|\]$/g, '');
    const agent = new Agent({
      connect: (options, callback) =>
        connector(
          { ...options, hostname: target.address, servername: isIP(host) ? undefined : host },
          callback,
        ),
    });
    try {
      const response = await undiciFetch(target.url, { ...(init as object), dispatcher: agent } as never);
      // Read here, while the agent is open.
      const text = await response.text();
      // A 204 (a transition made) has no body, and a Response refuses one.
      const empty = [204, 205, 304].includes(response.status);
      return new Response(empty ? null : text, {
        status: response.status,
        headers: response.headers as never,
      });
    } finally {
      await agent.close();
    }
  };
}

/** A Jira label is one word: `dw-` and the key's hash. */
export const jiraLabel = (key: string) => `dw-${keyHash(key)}`;

/**
 * Jira Cloud (REST v3): one issue per finding, found again by its label through the JQL search
 * (`GET /rest/api/3/search/jql`), never by its title; resolved → a comment and the transition the
 * admin named; back → a comment and a transition out of done.
 */
/** One call to the admin's Jira site's REST API v3, signed in with the e-mail and API token. */
function jiraApi(siteUrl: string, credentials: Json, urls: IntegrationUrls) {
  const timeout = urls.timeoutMs ?? TIMEOUT_MS;
  const site = siteUrl.replace(/\/+$/, '');
  const headers = {
    authorization: `Basic ${Buffer.from(`${credentials.email}:${credentials.apiToken}`).toString('base64')}`,
  };
  const fetchWith = siteFetch(urls);
  return (path: string, method = 'GET', body?: unknown) =>
    call('Jira', `${site}/rest/api/3${path}`, { method, headers, body }, timeout, fetchWith);
}

/** Pages read at most per list: a thousand projects or issue types is more than any form offers. */
const JIRA_PAGES = 20;
const JIRA_PAGE_SIZE = 50;

/**
 * What the connect form offers for a Jira site: its projects and, for the project chosen, the issue
 * types one can file (sub-tasks need a parent, so not those) and the statuses of its workflow in the
 * done category. A status name is a valid "transition when fixed": the transition is picked by its
 * own name or by the name of the status it leads to.
 */
export async function jiraChoices(
  siteUrl: string,
  credentials: Json,
  projectKey: string | undefined,
  urls: IntegrationUrls,
): Promise<JiraChoices> {
  const api = jiraApi(siteUrl, credentials, urls);
  const projects: JiraChoices['projects'] = [];
  for (let page = 0, startAt = 0; page < JIRA_PAGES; page++) {
    const query = new URLSearchParams({
      startAt: String(startAt),
      maxResults: String(JIRA_PAGE_SIZE),
      orderBy: 'key',
    });
    const found = await api(`/project/search?${query}`);
    const values = Array.isArray(found.values) ? (found.values as Json[]) : [];
    projects.push(...values.map((p) => ({ key: String(p.key), name: String(p.name ?? p.key) })));
    startAt += values.length;
    if (found.isLast === true || values.length === 0) break;
  }
  if (!projectKey) return { projects, issueTypes: [], transitions: [] };
  const project = encodeURIComponent(projectKey);
  const issueTypes: JiraChoices['issueTypes'] = [];
  for (let page = 0, startAt = 0; page < JIRA_PAGES; page++) {
    const query = new URLSearchParams({ startAt: String(startAt), maxResults: String(JIRA_PAGE_SIZE) });
    const found = await api(`/issue/createmeta/${project}/issuetypes?${query}`);
    // Jira Cloud names the list `issueTypes`; older answers name it `values`.
    const listed = found.issueTypes ?? found.values;
    const values = Array.isArray(listed) ? (listed as Json[]) : [];
    issueTypes.push(
      ...values.filter((t) => t.subtask !== true).map((t) => ({ id: String(t.id), name: String(t.name) })),
    );
    startAt += values.length;
    if (values.length === 0 || (typeof found.total === 'number' && startAt >= found.total)) break;
  }
  // The project's workflow statuses, one list per issue type (Jira answers an array).
  const statuses = (await api(`/project/${project}/statuses`)) as unknown;
  const done = new Set<string>();
  for (const type of Array.isArray(statuses) ? (statuses as Json[]) : []) {
    for (const status of Array.isArray(type.statuses) ? (type.statuses as Json[]) : []) {
      const category = (status.statusCategory as Json | undefined)?.key;
      if (category === 'done' && typeof status.name === 'string') done.add(status.name);
    }
  }
  return { projects, issueTypes, transitions: [...done].map((name) => ({ name })) };
}

function jira(settings: Json, credentials: Json, urls: IntegrationUrls): Target {
  const project = String(settings.projectKey);
  const api = jiraApi(String(settings.siteUrl), credentials, urls);
  const find = async (key: string): Promise<{ key: string; done: boolean } | null> => {
    const jql = `project = "${project}" AND labels = "${jiraLabel(key)}" ORDER BY created ASC`;
    const found = await api(`/search/jql?${new URLSearchParams({ jql, fields: 'status', maxResults: '1' })}`);
    const issue = ((found.issues ?? []) as Json[])[0];
    if (!issue) return null;
    const category = ((issue.fields as Json | undefined)?.status as Json | undefined)?.statusCategory as
      | Json
      | undefined;
    return { key: String(issue.key), done: category?.key === 'done' };
  };
  const byKey = async (ref: string) => {
    const issue = await api(`/issue/${encodeURIComponent(ref)}?fields=status`);
    const category = ((issue.fields as Json | undefined)?.status as Json | undefined)?.statusCategory as
      | Json
      | undefined;
    return { key: String(issue.key), done: category?.key === 'done' };
  };
  const gone = (error: unknown) => {
    if (error instanceof TargetError && !error.retry) return null;
    throw error;
  };
  const transition = async (issueKey: string, toDone: boolean) => {
    const { transitions = [] } = (await api(`/issue/${encodeURIComponent(issueKey)}/transitions`)) as {
      transitions?: Json[];
    };
    const category = (t: Json) => ((t.to as Json | undefined)?.statusCategory as Json | undefined)?.key;
    const wanted = String(settings.doneTransition).toLowerCase();
    const pick = toDone
      ? (transitions.find((t) => String(t.name).toLowerCase() === wanted) ??
        transitions.find((t) => String((t.to as Json | undefined)?.name ?? '').toLowerCase() === wanted))
      : (transitions.find((t) => category(t) === 'new') ?? transitions.find((t) => category(t) !== 'done'));
    if (!pick)
      throw new TargetError(
        toDone
          ? `Jira refused: no transition named “${settings.doneTransition}” from this issue's status`
          : 'Jira refused: no transition leads out of done',
        false,
      );
    await api(`/issue/${encodeURIComponent(issueKey)}/transitions`, 'POST', {
      transition: { id: String(pick.id) },
    });
  };
  const comment = (issueKey: string, text: string) =>
    api(`/issue/${encodeURIComponent(issueKey)}/comment`, 'POST', { body: adf(text) });
  const create = async (summary: string, description: string, labels: string[]) => {
    const made = await api('/issue', 'POST', {
      fields: {
        project: { key: project },
        issuetype: { name: String(settings.issueType) },
        summary: summary.slice(0, 255),
        description: adf(description),
        labels,
      },
    });
    return String(made.key);
  };
  return {
    async verify() {
      await api('/myself');
      const found = await api(`/project/${encodeURIComponent(project)}`);
      const types = ((found.issueTypes ?? []) as Json[]).map((t) => String(t.name));
      if (types.length && !types.includes(String(settings.issueType)))
        throw new TargetError(
          `Jira refused: the project ${project} has no issue type “${settings.issueType}” (it has ${types.join(', ')})`,
          false,
        );
    },
    async test() {
      const made = await create(
        TEST_ITEM_TITLE,
        'A test from DangleWatch: this integration works. Closed at once.',
        ['danglewatch'],
      );
      await transition(made, true);
    },
    async open(item, ref, reason) {
      const found = (ref ? await byKey(ref).catch(gone) : null) ?? (await find(item.key));
      if (!found) {
        return create(item.title, `${item.body}\n\nThe finding in DangleWatch: ${item.link}`, [
          'danglewatch',
          jiraLabel(item.key),
        ]);
      }
      if (found.done) {
        await comment(found.key, reason ?? 'The finding is open again.');
        await transition(found.key, false);
      } else if (reason) {
        await comment(found.key, reason);
      }
      return found.key;
    },
    async close(item, ref, reason) {
      const found = (ref ? await byKey(ref).catch(gone) : null) ?? (await find(item.key));
      if (!found) return null;
      if (found.done) return found.key;
      await comment(found.key, reason);
      await transition(found.key, true);
      return found.key;
    },
  };
}

/** The service of one integration, from its settings and unsealed credentials. */
export function targetOf(
  kind: IntegrationKind,
  settings: Json,
  credentials: Json,
  urls: IntegrationUrls,
): Target {
  switch (kind) {
    case 'pagerduty':
      return pagerduty(credentials, urls);
    case 'github':
      return github(settings, credentials, urls);
    case 'linear':
      return linear(settings, credentials, urls);
    case 'jira':
      return jira(settings, credentials, urls);
    default:
      throw new TargetError(`${kind} is not available yet`, false);
  }
}
