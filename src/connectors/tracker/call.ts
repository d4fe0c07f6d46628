import { request } from '../http/client.ts';
import { ConnectorError } from '../http/error.ts';
import { answerError } from '../http/json.ts';
import type { UserHost } from '../http/user-host.ts';

export type Json = Record<string, unknown>;

/** How a tracker is reached: a deadline per call, and for a site someone typed, how it is resolved. */
export interface TrackerCallOptions {
  timeoutMs: number;
  userHost?: UserHost;
}

/** A tracker's own words for a refusal, from the shapes the four trackers answer with. */
export function reasonOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
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
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * One JSON call to a tracker through the connectors' client: no retries here (a delivery is tried
 * again by its job), a refusal as a ConnectorError in the tracker's words, with its answer kept.
 */
export async function trackerCall(
  provider: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  options: TrackerCallOptions,
): Promise<Json> {
  const answer = await request({
    provider,
    url,
    method: init.method,
    headers: {
      accept: 'application/json',
      ...init.headers,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    timeoutMs: options.timeoutMs,
    userHost: options.userHost,
  });
  let body: unknown = null;
  try {
    body = answer.body.length ? JSON.parse(answer.body.toString('utf8')) : null;
  } catch {
    body = null;
  }
  // GitHub says a spent rate limit with a 403 and no requests left, or a Retry-After.
  const spent =
    answer.status === 403 &&
    (answer.headers.get('x-ratelimit-remaining') === '0' || answer.headers.has('retry-after'));
  if (spent)
    throw new ConnectorError(provider, 'unavailable', {
      message: `${provider} is rate limiting us; it will be tried again later`,
      detail: reasonOf(body) ?? `HTTP ${answer.status}`,
      status: answer.status,
    });
  if (answer.status >= 300) throw answerError(provider, answer, reasonOf(body), [401], body);
  return (body && typeof body === 'object' ? body : {}) as Json;
}
