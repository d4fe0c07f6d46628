import { setTimeout as sleep } from 'node:timers/promises';
import { fetch, type Response } from 'undici';
import type { z } from 'zod';
import {
  CALL_DEFAULTS,
  type ProviderCallOptions,
  ProviderError,
  type ProviderFailure,
  type ProviderId,
} from './provider.ts';

interface JsonCall<T> {
  provider: ProviderId;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  schema: z.ZodType<T>;
  /** Statuses that mean the credential was refused; 401 and 403 unless said otherwise. */
  refusedStatuses?: number[];
  /** The provider's own message from an error body, when it has one. */
  reason: (body: unknown) => string | undefined;
  options?: ProviderCallOptions;
}

/** Seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null) {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * DigitalOcean's `ratelimit-reset` (its API specification's shared headers): the Unix time, in
 * seconds, at which its oldest counted request expires, in ms from now. A 429 of theirs carries
 * this and no Retry-After. Undefined when absent or not a Unix time.
 */
export function rateLimitResetMs(header: string | null) {
  const at = Number(header);
  if (!header || !Number.isFinite(at) || at < 1e9) return undefined;
  return Math.max(0, at * 1000 - Date.now());
}

/** How long a 429 asks us to wait: its Retry-After, else a ratelimit-reset within the cap, else the backoff. */
function throttledMs(response: Response, backoff: number) {
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  // A reset further off than the cap is the hourly window's; a per-minute limit may clear sooner.
  const reset = rateLimitResetMs(response.headers.get('ratelimit-reset'));
  return reset !== undefined && reset <= CALL_DEFAULTS.maxRetryAfterMs ? Math.max(reset, backoff) : backoff;
}

function failureOf(status: number, refused: number[]): ProviderFailure {
  if (refused.includes(status)) return 'credentials';
  if (status === 404) return 'not-found';
  return status === 429 || status >= 500 ? 'unavailable' : 'malformed';
}

/** The body as JSON (undefined when it is not JSON), read up to `limit` bytes and no further. */
async function readJson(response: Response, limit: number, provider: ProviderId) {
  const tooLarge = () =>
    new ProviderError(provider, 'malformed', `${provider} API sent an answer larger than ${limit} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop cancels the stream: the rest of an oversized answer is never read.
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > limit) break;
    chunks.push(Buffer.from(chunk));
  }
  if (size > limit) throw tooLarge();
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One JSON call to a provider's REST API with undici `fetch`: a deadline per attempt, 429 waits
 * `Retry-After` or a near `ratelimit-reset` (capped), 5xx and timeouts back off exponentially, both
 * a bounded number of times;
 * the answer is checked against `schema`. Errors carry the provider's message, never the request.
 */
export async function callJson<T>(call: JsonCall<T>): Promise<T> {
  const options = call.options ?? {};
  const maxRetries = options.maxRetries ?? CALL_DEFAULTS.maxRetries;
  const retryBaseMs = options.retryBaseMs ?? CALL_DEFAULTS.retryBaseMs;
  const timeoutMs = options.timeoutMs ?? CALL_DEFAULTS.timeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? CALL_DEFAULTS.maxBodyBytes;
  const name = call.provider;
  for (let attempt = 0; ; attempt++) {
    const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
    let response: Response;
    try {
      response = await fetch(call.url, {
        method: call.method ?? 'GET',
        headers: { accept: 'application/json', ...call.headers },
        body: call.body,
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const timedOut = (error as Error).name === 'TimeoutError';
      if (attempt < maxRetries) {
        await sleep(retryBaseMs * 2 ** attempt, undefined, { signal: options.signal });
        continue;
      }
      const cause = timedOut
        ? `no answer within ${timeoutMs} ms`
        : ((error as Error).cause as Error)?.message;
      throw new ProviderError(
        name,
        'unavailable',
        `${name} API unreachable: ${cause ?? (error as Error).message}`,
      );
    }
    if (response.status === 429 || response.status >= 500) {
      const body = await readJson(response, maxBodyBytes, name);
      const backoff = retryBaseMs * 2 ** attempt;
      const wait = response.status === 429 ? throttledMs(response, backoff) : backoff;
      if (attempt < maxRetries && wait <= CALL_DEFAULTS.maxRetryAfterMs) {
        await sleep(wait, undefined, { signal: options.signal });
        continue;
      }
      const reason = call.reason(body) ?? `HTTP ${response.status}`;
      throw new ProviderError(
        name,
        'unavailable',
        `${name} API failed after ${attempt + 1} attempts: ${reason}`,
      );
    }
    const body = await readJson(response, maxBodyBytes, name);
    if (!response.ok) {
      const reason = call.reason(body) ?? `HTTP ${response.status}`;
      throw new ProviderError(name, failureOf(response.status, call.refusedStatuses ?? [401, 403]), reason);
    }
    const parsed = call.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProviderError(
        name,
        'malformed',
        `${name} API sent an unexpected answer (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'not JSON'})`,
      );
    }
    return parsed.data;
  }
}
