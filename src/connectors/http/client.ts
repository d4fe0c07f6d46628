import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, buildConnector, type Dispatcher, fetch, type Headers, type Response } from 'undici';
import { ConnectorError } from './error.ts';
import { rateLimitResetMs, retryAfterMs } from './retry-after.ts';
import { checkedAddress, type UserHost } from './user-host.ts';

/** The most an outside answer is read to: an API's answer is a page of JSON, never megabytes. */
export const ANSWER_BYTES = 2 ** 20;
/**
 * A page of a provider's list (DNS records, cloud resources): ARM, Compute and Cloud DNS spell every
 * item out in full, so a page of a thousand runs past 1 MB; still nothing memory notices.
 */
export const PAGE_ANSWER_BYTES = 8 * 2 ** 20;
/** A proof check's answer: one object's status or one small document. */
export const PROOF_ANSWER_BYTES = 64 * 1024;
/** Per attempt, unless the connector says otherwise. */
export const ATTEMPT_TIMEOUT_MS = 30_000;
/** The longest Retry-After (or ratelimit-reset) a call waits out; a longer one ends the call. */
export const MAX_WAIT_MS = 60_000;
const RETRY_BASE_MS = 500;

export interface HttpCall {
  /** The provider as people name it, in errors: 'Jira', 'GitHub'. */
  provider: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Deadline of each attempt, the answer's body included. */
  timeoutMs?: number;
  /** A larger answer is this call's failure (`too-large`), and is never read further. */
  maxBytes?: number;
  /** false: the body is not wanted (a webhook receiver's), cancelled unread; only the status counts. */
  readBody?: false;
  /** Absent: a 3xx is the answer, never followed. 'follow' only for the provider's own API hosts. */
  redirect?: 'follow';
  /** Set for a host someone typed: resolved and checked as `UserHost` says, connected to by that address. */
  userHost?: UserHost;
  /** Attempts after the first, for a 429, a 5xx, a timeout or an unreachable host. */
  retries?: number;
  /** 'throttled': only a 429 or a 503 with Retry-After is tried again, nothing else. */
  retryOnly?: 'throttled';
  /** First backoff, doubled at each retry; a 429 waits its Retry-After instead. */
  retryBaseMs?: number;
  /** The longest wait a 429 or 503 may ask for and still be retried. */
  maxWaitMs?: number;
  signal?: AbortSignal;
}

/** A whole answer, read within the size bound. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The body as text. */
export const textOf = (answer: HttpAnswer) => answer.body.toString('utf8');

/** The body as JSON; undefined when it is empty or not JSON. */
export function jsonOf(answer: HttpAnswer): unknown {
  try {
    return answer.body.length ? JSON.parse(answer.body.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/** How long a throttled answer asks us to wait: Retry-After, else DigitalOcean's ratelimit-reset. */
export function askedWaitMs(headers: Headers): number | undefined {
  return retryAfterMs(headers.get('retry-after')) ?? rateLimitResetMs(headers.get('ratelimit-reset'));
}

/**
 * The body, read up to `limit` bytes and no further: past it the stream is cancelled, so the rest
 * of an oversized answer never reaches memory, and the call fails.
 */
async function readBounded(response: Response, limit: number, provider: string): Promise<Buffer> {
  const tooLarge = () =>
    new ConnectorError(provider, 'too-large', {
      detail: `the answer is larger than ${limit} bytes`,
      status: response.status,
    });
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** A body nobody reads: cancelled at once, so the receiver's answer never reaches memory. */
async function discard(response: Response): Promise<Buffer> {
  await response.body?.cancel().catch(() => {});
  return Buffer.alloc(0);
}

/** An agent that connects to `address` only, with the URL's host as SNI and certificate name. */
function pinnedAgent(url: URL, address: string, timeoutMs: number): Agent {
  const connector = buildConnector({ timeout: timeoutMs });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Agent({
    connect: (options, callback) =>
      connector({ ...options, hostname: address, servername: isIP(host) ? undefined : host }, callback),
  });
}

const throttled = (status: number, headers: Headers) =>
  status === 429 || (status === 503 && headers.has('retry-after'));

/**
 * How long a throttled answer makes us wait before the next attempt: its Retry-After, else a
 * ratelimit-reset within the bound (one further off is an hourly window's; a per-minute limit may
 * clear sooner), else the backoff.
 */
function throttledWaitMs(headers: Headers, backoff: number, maxWaitMs: number): number {
  const retryAfter = retryAfterMs(headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  const reset = rateLimitResetMs(headers.get('ratelimit-reset'));
  return reset !== undefined && reset <= maxWaitMs ? Math.max(reset, backoff) : backoff;
}

/**
 * One outside HTTP call, the way every connector makes it: a deadline per attempt (the body
 * included), an answer read to `maxBytes` at most, no redirect followed unless asked, a typed host
 * resolved through the scan resolvers and connected to at the address checked, and a 429/5xx or a
 * timeout tried again `retries` times, waiting what Retry-After asks within `maxWaitMs`. Any status
 * comes back as the answer (the connector knows what its statuses mean); a timeout or an
 * unreachable host, after the retries, is a ConnectorError (`unavailable`).
 */
export async function request(call: HttpCall): Promise<HttpAnswer> {
  const timeoutMs = call.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const maxBytes = call.maxBytes ?? ANSWER_BYTES;
  const retries = call.retries ?? 0;
  const retryBaseMs = call.retryBaseMs ?? RETRY_BASE_MS;
  const maxWaitMs = call.maxWaitMs ?? MAX_WAIT_MS;
  const url = new URL(call.url);
  let dispatcher: Dispatcher | undefined;
  if (call.userHost) {
    // A redirect would be followed to the address checked for another host.
    if (call.redirect === 'follow') throw new Error('a typed host is never followed through redirects');
    const address = await checkedAddress(call.provider, url, call.userHost);
    dispatcher = pinnedAgent(url, address, timeoutMs);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;
      let answer: HttpAnswer;
      try {
        const response = await fetch(url, {
          method: call.method ?? 'GET',
          headers: { 'user-agent': 'DangleWatch/1', ...call.headers },
          body: call.body,
          redirect: call.redirect ?? 'manual',
          signal,
          ...(dispatcher ? { dispatcher } : {}),
        });
        const retryable =
          call.retryOnly === 'throttled'
            ? throttled(response.status, response.headers)
            : response.status >= 500 || response.status === 429;
        if (retryable && attempt < retries) {
          const backoff = retryBaseMs * 2 ** attempt;
          const wait = throttled(response.status, response.headers)
            ? throttledWaitMs(response.headers, backoff, maxWaitMs)
            : backoff;
          if (wait <= maxWaitMs) {
            await response.body?.cancel().catch(() => {});
            await sleep(wait, undefined, { signal: call.signal });
            continue;
          }
        }
        answer = {
          status: response.status,
          headers: response.headers,
          body:
            call.readBody === false
              ? await discard(response)
              : await readBounded(response, maxBytes, call.provider),
        };
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        if (call.signal?.aborted) throw call.signal.reason;
        if (attempt < retries && call.retryOnly !== 'throttled') {
          await sleep(retryBaseMs * 2 ** attempt, undefined, { signal: call.signal });
          continue;
        }
        const cause = (error as Error).cause as Error | undefined;
        throw new ConnectorError(call.provider, 'unavailable', {
          message: deadline.aborted
            ? `${call.provider} did not answer within ${timeoutMs / 1000} s`
            : `${call.provider} could not be reached`,
          detail: deadline.aborted ? undefined : (cause?.message ?? (error as Error).message),
        });
      }
      return answer;
    }
  } finally {
    await dispatcher?.destroy();
  }
}
