import type { Headers } from 'undici';
import { PROOF_ANSWER_BYTES, request, textOf } from '../http/client.ts';
import { retryAfterMs as headerWaitMs } from '../http/retry-after.ts';

/** A provider asked us to wait longer than a scan waits: its checks answer "could not be checked" until then. */
export class Throttled extends Error {
  readonly untilMs: number;
  constructor(provider: string, waitMs: number) {
    super(`${provider} is throttling (Retry-After ${Math.ceil(waitMs / 1000)} s)`);
    this.untilMs = Date.now() + waitMs;
  }
}

/** The wait a Retry-After header asks for, in ms: seconds or an HTTP date; 1 s when absent or garbled. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number {
  return headerWaitMs(value, now) ?? 1000;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * One request to a provider's API through the connectors' client, with the check's deadline and a
 * proof check's answer bound (a larger answer fails the check's call, unread). A 429 (or a 503 with
 * Retry-After) is waited out once when the provider asks for no more than `maxRetryAfterMs`; longer,
 * it throws `Throttled` so that the provider's other checks stop asking too.
 */
export async function apiRequest(
  provider: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  settings: { timeoutMs: number; maxRetryAfterMs: number },
  signal: AbortSignal,
): Promise<ApiResponse> {
  const answer = await request({
    provider,
    url,
    ...init,
    timeoutMs: settings.timeoutMs,
    maxBytes: PROOF_ANSWER_BYTES,
    retries: 1,
    retryOnly: 'throttled',
    retryBaseMs: 1000,
    maxWaitMs: settings.maxRetryAfterMs,
    signal,
  });
  const throttled = answer.status === 429 || (answer.status === 503 && answer.headers.has('retry-after'));
  if (throttled) throw new Throttled(provider, retryAfterMs(answer.headers.get('retry-after')));
  return { status: answer.status, headers: answer.headers, body: textOf(answer) };
}
