import type { z } from 'zod';
import { type HttpAnswer, jsonOf, request } from '../http/client.ts';
import { ConnectorError } from '../http/error.ts';
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

function failureOf(status: number, refused: number[]): ProviderFailure {
  if (refused.includes(status)) return 'credentials';
  if (status === 404) return 'not-found';
  return 'malformed';
}

/**
 * One JSON call to a provider's REST API through the connectors' client: a deadline per attempt,
 * 429 waits `Retry-After` or a near `ratelimit-reset` (capped), 5xx and timeouts back off
 * exponentially, both a bounded number of times; an answer past `maxBodyBytes` is refused, not
 * read; the answer is checked against `schema`. Errors carry the provider's message, never the request.
 */
export async function callJson<T>(call: JsonCall<T>): Promise<T> {
  const options = call.options ?? {};
  const maxRetries = options.maxRetries ?? CALL_DEFAULTS.maxRetries;
  const timeoutMs = options.timeoutMs ?? CALL_DEFAULTS.timeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? CALL_DEFAULTS.maxBodyBytes;
  const name = call.provider;
  let answer: HttpAnswer;
  try {
    answer = await request({
      provider: name,
      url: call.url,
      method: call.method ?? 'GET',
      headers: { accept: 'application/json', ...call.headers },
      body: call.body,
      timeoutMs,
      maxBytes: maxBodyBytes,
      retries: maxRetries,
      retryBaseMs: options.retryBaseMs ?? CALL_DEFAULTS.retryBaseMs,
      maxWaitMs: CALL_DEFAULTS.maxRetryAfterMs,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    if (error.failure === 'too-large')
      throw new ProviderError(
        name,
        'malformed',
        `${name} API sent an answer larger than ${maxBodyBytes} bytes`,
      );
    const cause = error.detail ?? `no answer within ${timeoutMs} ms`;
    throw new ProviderError(name, 'unavailable', `${name} API unreachable: ${cause}`);
  }
  const body = jsonOf(answer);
  if (answer.status === 429 || answer.status >= 500) {
    const reason = call.reason(body) ?? `HTTP ${answer.status}`;
    throw new ProviderError(name, 'unavailable', `${name} API failed: ${reason}`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    const reason = call.reason(body) ?? `HTTP ${answer.status}`;
    throw new ProviderError(name, failureOf(answer.status, call.refusedStatuses ?? [401, 403]), reason);
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
