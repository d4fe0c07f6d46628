import type { z } from 'zod';
import { PAGE_ANSWER_BYTES } from '../http/client.ts';
import { ConnectorError } from '../http/error.ts';
import { requestJson } from '../http/json.ts';
import {
  CLOUD_CALL_DEFAULTS,
  CLOUD_NAMES,
  type CloudCallOptions,
  CloudError,
  type CloudFailure,
  type CloudId,
} from './provider.ts';

interface CloudJsonCall<T> {
  cloud: CloudId;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  schema: z.ZodType<T>;
  /** The cloud's own message from an error body. */
  reason: (body: unknown) => string | undefined;
  refusedStatuses?: number[];
  options?: CloudCallOptions;
}

/** The cloud's failure kinds: a credential that cannot see what it asks for is refused too. */
const FAILURES: Partial<Record<ConnectorError['failure'], CloudFailure>> = {
  credentials: 'credentials',
  'not-found': 'credentials',
  unavailable: 'unavailable',
};

/**
 * One JSON call to a cloud's REST API through the connectors' client: 429 waits `Retry-After`,
 * 5xx and timeouts back off, a bounded number of times; its failures as CloudErrors in the cloud's
 * own words.
 */
export async function cloudJson<T>(call: CloudJsonCall<T>): Promise<T> {
  const options = call.options ?? {};
  const name = CLOUD_NAMES[call.cloud];
  const timeoutMs = options.timeoutMs ?? CLOUD_CALL_DEFAULTS.timeoutMs;
  try {
    return await requestJson({
      provider: name,
      url: call.url,
      method: call.method ?? 'GET',
      headers: call.headers,
      body: call.body,
      schema: call.schema,
      reason: call.reason,
      refusedStatuses: call.refusedStatuses,
      timeoutMs,
      maxBytes: PAGE_ANSWER_BYTES,
      retries: options.maxRetries ?? CLOUD_CALL_DEFAULTS.maxRetries,
      retryBaseMs: options.retryBaseMs,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof ConnectorError) || error instanceof CloudError) throw error;
    const failure = FAILURES[error.failure] ?? 'malformed';
    const words = error.detail ?? `no answer within ${timeoutMs} ms`;
    const message =
      failure === 'credentials'
        ? words
        : error.failure === 'malformed'
          ? `${name} API sent an unexpected answer (${words})`
          : error.failure === 'too-large'
            ? `${name} API sent an answer larger than ${PAGE_ANSWER_BYTES} bytes`
            : error.status
              ? `${name} API failed: ${words}`
              : `${name} API unreachable: ${words}`;
    throw new CloudError(call.cloud, failure, message);
  }
}

/**
 * A next-page link the cloud gave, followed only on the API's own origin: a link elsewhere would
 * make our server, holding the token, call an address the answer chose.
 */
export function sameOrigin(cloud: CloudId, link: string, base: string): string {
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    throw new CloudError(cloud, 'malformed', `${CLOUD_NAMES[cloud]} sent a next-page link that is not a URL`);
  }
  if (url.origin !== new URL(base).origin)
    throw new CloudError(
      cloud,
      'malformed',
      `${CLOUD_NAMES[cloud]} sent a next-page link to another host (${url.origin})`,
    );
  return url.toString();
}
