import { TEST_ITEM_TITLE } from '../../model/integrations.ts';
import { ConnectorError } from '../http/error.ts';
import { type Json, type TrackerCallOptions, trackerCall } from '../tracker/call.ts';
import { TEST_BODY, type Tracker } from '../tracker/tracker.ts';

export const GITHUB_API_URL = 'https://api.github.com';

/** The hidden line a GitHub issue's body carries: how the issue is found again. */
export const githubMarker = (key: string) => `<!-- ${key} -->`;
const GITHUB_LABEL = 'danglewatch';

/**
 * GitHub's known refusals in plain words, for the repository asked about; anything else as the
 * client said it. GitHub answers 404, not 403, for a private repository the token may not see.
 */
function plainly(repo: string) {
  return (error: unknown): never => {
    if (!(error instanceof ConnectorError) || error.retry) throw error;
    const words: Partial<Record<number, string>> = {
      401: 'GitHub did not accept the token: it may be mistyped, expired or revoked',
      403: `The token may not write issues in ${repo}: give it Issues: read and write on that repository`,
      404: `GitHub shows no repository ${repo} to this token: check its spelling, and that the token may read it`,
      410: `Issues are turned off in ${repo} on GitHub`,
      422: `GitHub refused the issue as invalid for ${repo}`,
    };
    const sentence = error.status === undefined ? undefined : words[error.status];
    throw sentence ? error.reworded(sentence) : error;
  };
}

/** GitHub Issues: one issue per finding, found again by the marker in its body; closed when fixed. */
export function github(
  settings: Json,
  credentials: Json,
  base: string,
  options: TrackerCallOptions,
): Tracker {
  const repo = String(settings.repository);
  const root = `${base.replace(/\/$/, '')}/repos/${repo}`;
  const headers = {
    authorization: `Bearer ${credentials.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const gh = (path: string, method = 'GET', body?: unknown) =>
    trackerCall('GitHub', `${root}${path}`, { method, headers, body }, options).catch(plainly(repo));
  /** The issue carrying the key's marker, open or closed: our label's issues, page by page. */
  const find = async (key: string): Promise<{ number: number; state: string } | null> => {
    const marker = githubMarker(key);
    for (let page = 1; page <= 50; page++) {
      const list = (await gh(
        `/issues?state=all&labels=${GITHUB_LABEL}&per_page=100&page=${page}`,
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
        throw new ConnectorError('GitHub', 'refused', {
          message: `Issues are turned off in ${repo} on GitHub`,
        });
    },
    async test() {
      const made = await gh('/issues', 'POST', { title: TEST_ITEM_TITLE, body: TEST_BODY });
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
