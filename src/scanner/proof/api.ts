import type { Headers } from 'undici';
import { PROOF_ANSWER_BYTES, request, textOf } from '../../connectors/http/client.ts';
import { ConnectorError } from '../../connectors/http/error.ts';
import { retryAfterMs as headerWaitMs } from '../../connectors/http/retry-after.ts';
import { type Outcome, unknown } from './check.ts';
import type { ProofSettings } from './settings.ts';

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
  settings: Pick<ProofSettings, 'timeoutMs' | 'maxRetryAfterMs'>,
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

/**
 * What a failed request means for the proof: it could not be checked, and why. `Throttled` goes
 * on up, for the proof phase to hold the provider's other checks back.
 */
export function failure(provider: string, error: unknown): Outcome {
  if (error instanceof Throttled) throw error;
  if (error instanceof ConnectorError) {
    // The client's deadline passed: no answer, and no words of the provider's.
    if (error.failure === 'unavailable' && error.detail === undefined)
      return unknown(`${provider} did not answer in time`);
    return unknown(error.full);
  }
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return unknown(`${provider} did not answer in time`);
  return unknown(`${provider} could not be reached (${(error as Error)?.message ?? String(error)})`);
}
