import type { z } from 'zod';
import { askedWaitMs, type HttpAnswer, type HttpCall, jsonOf, request } from './client.ts';
import { ConnectorError } from './error.ts';

export interface JsonCall<T> extends HttpCall {
  /** What a successful answer must look like. */
  schema: z.ZodType<T>;
  /** The provider's own words in an error body, when it has them. */
  reason: (body: unknown) => string | undefined;
  /** Statuses that mean the credential was refused; 401 and 403 unless said otherwise. */
  refusedStatuses?: number[];
}

/**
 * What an answer that is not a success means: rate limited, down (5xx) or redirected elsewhere is
 * `unavailable`; a refused credential, a missing thing or any other refusal is the provider's no.
 * The provider's words go in `detail`, the sentence is ours.
 */
export function answerError(
  provider: string,
  answer: HttpAnswer,
  words: string | undefined,
  refusedStatuses: readonly number[] = [401, 403],
  body?: unknown,
): ConnectorError {
  const { status } = answer;
  const detail = words ?? `HTTP ${status}`;
  if (status === 429)
    return new ConnectorError(provider, 'unavailable', {
      message: `${provider} is rate limiting us; it will be tried again later`,
      detail,
      status,
      retryAfterMs: askedWaitMs(answer.headers),
      body,
    });
  if (status >= 500)
    return new ConnectorError(provider, 'unavailable', {
      message: `${provider} failed (HTTP ${status}); it will be tried again later`,
      detail,
      status,
      body,
    });
  if (status >= 300 && status < 400)
    return new ConnectorError(provider, 'refused', {
      message: `${provider} answered with a redirect, which DangleWatch does not follow`,
      detail: answer.headers.get('location') ?? detail,
      status,
      body,
    });
  if (refusedStatuses.includes(status))
    return new ConnectorError(provider, 'credentials', { detail, status, body });
  if (status === 404) return new ConnectorError(provider, 'not-found', { detail, status, body });
  return new ConnectorError(provider, 'refused', { detail, status, body });
}

/**
 * One JSON call: `request` with an Accept header, its failures as ConnectorErrors in the provider's
 * words, a success checked against `schema`.
 */
export async function requestJson<T>(call: JsonCall<T>): Promise<T> {
  const answer = await request({ ...call, headers: { accept: 'application/json', ...call.headers } });
  const body = jsonOf(answer);
  if (answer.status < 200 || answer.status >= 300)
    throw answerError(call.provider, answer, call.reason(body), call.refusedStatuses);
  const parsed = call.schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConnectorError(call.provider, 'malformed', {
      detail: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'not JSON'}`,
      status: answer.status,
    });
  }
  return parsed.data;
}
