import { sleep } from '../util/limit.ts';
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
  if (!value) return 1000;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** Provider answers are small; a larger body is cut, never read whole. */
const MAX_BODY = 64 * 1024;

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= MAX_BODY) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY);
}

/**
 * One request to a provider's API, with the check's deadline. A 429 (or a 503 with Retry-After)
 * is waited out once when the provider asks for no more than `maxRetryAfterMs`; longer, it throws
 * `Throttled` so that the provider's other checks stop asking too.
 */
export async function apiRequest(
  provider: string,
  url: string,
  init: RequestInit,
  settings: Pick<ProofSettings, 'timeoutMs' | 'maxRetryAfterMs'>,
  signal: AbortSignal,
): Promise<ApiResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
    });
    const body = await readCapped(response);
    const throttled =
      response.status === 429 || (response.status === 503 && response.headers.has('retry-after'));
    if (!throttled) return { status: response.status, headers: response.headers, body };
    const wait = retryAfterMs(response.headers.get('retry-after'));
    if (attempt > 0 || wait > settings.maxRetryAfterMs) throw new Throttled(provider, wait);
    await sleep(wait, signal);
  }
}

/**
 * What a failed request means for the proof: it could not be checked, and why. `Throttled` goes
 * on up, for the proof phase to hold the provider's other checks back.
 */
export function failure(provider: string, error: unknown): Outcome {
  if (error instanceof Throttled) throw error;
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return unknown(`${provider} did not answer in time`);
  return unknown(`${provider} could not be reached (${(error as Error)?.message ?? String(error)})`);
}
