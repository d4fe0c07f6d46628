import { type JiraChoices, TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { ConnectorError } from '../http/error.ts';
import type { UserHost } from '../http/user-host.ts';
import { type Json, trackerCall } from '../tracker/call.ts';
import { TEST_BODY, type Tracker } from '../tracker/tracker.ts';

/** Atlassian Document Format: the one shape Jira Cloud REST v3 takes rich text in. */
const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: text
    .split(/\n{2,}/)
    .map((para) => ({ type: 'paragraph', content: para ? [{ type: 'text', text: para }] : [] })),
});

/** A Jira label is one word: `dw-` and the key's hash (the key without its `dw:`, as no colon is allowed). */
export const jiraLabel = (key: string) => `dw-${key.replace(/^dw:/, '')}`;

/**
 * How the admin's own Jira site is reached: a host someone typed, so resolved through the scan
 * resolvers, private addresses refused (but those the server allows, for tests), and connected to
 * at the address checked; https only, plain http only to an allowed private address.
 */
export interface JiraSiteOptions {
  timeoutMs: number;
  userHost: UserHost;
}

/** One call to the admin's Jira site's REST API v3, signed in with the e-mail and API token. */
function jiraApi(siteUrl: string, credentials: Json, options: JiraSiteOptions) {
  const site = siteUrl.replace(/\/+$/, '');
  const headers = {
    authorization: `Basic ${Buffer.from(`${credentials.email}:${credentials.apiToken}`).toString('base64')}`,
  };
  return (path: string, method = 'GET', body?: unknown) =>
    trackerCall('Jira', `${site}/rest/api/3${path}`, { method, headers, body }, options);
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
  options: JiraSiteOptions,
): Promise<JiraChoices> {
  const api = jiraApi(siteUrl, credentials, options);
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

/**
 * Jira Cloud (REST v3): one issue per finding, found again by its label through the JQL search
 * (`GET /rest/api/3/search/jql`), never by its title; resolved → a comment and the transition the
 * admin named; back → a comment and a transition out of done.
 */
export function jira(settings: Json, credentials: Json, options: JiraSiteOptions): Tracker {
  const project = String(settings.projectKey);
  const api = jiraApi(String(settings.siteUrl), credentials, options);
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
    if (error instanceof ConnectorError && !error.retry) return null;
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
      throw new ConnectorError('Jira', 'refused', {
        message: toDone
          ? `Jira has no transition named “${settings.doneTransition}” from this issue's status`
          : 'Jira has no transition that leads out of done',
      });
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
        throw new ConnectorError('Jira', 'refused', {
          message: `The Jira project ${project} has no issue type “${settings.issueType}”`,
          detail: `it has ${types.join(', ')}`,
        });
    },
    async test() {
      const made = await create(TEST_ITEM_TITLE, TEST_BODY, ['danglewatch']);
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
