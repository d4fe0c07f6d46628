import type { z } from 'zod';
import { callJson } from '../zone/providers/http.ts';
import { ProviderError } from '../zone/providers/provider.ts';
import { CLOUD_NAMES, type CloudCallOptions, CloudError, type CloudId } from './provider.ts';

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

/**
 * One JSON call to a cloud's REST API, with the retries the DNS providers' calls have (429 waits
 * `Retry-After`, 5xx and timeouts back off), its failures as CloudErrors in the cloud's own words.
 */
export async function cloudJson<T>(call: CloudJsonCall<T>): Promise<T> {
  try {
    return await callJson({
      // Only named in messages: the cloud's name reads better there than an id.
      provider: CLOUD_NAMES[call.cloud] as never,
      url: call.url,
      method: call.method,
      headers: call.headers,
      body: call.body,
      schema: call.schema,
      reason: call.reason,
      refusedStatuses: call.refusedStatuses,
      options: call.options,
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const failure =
      error.failure === 'credentials' || error.failure === 'not-found'
        ? 'credentials'
        : error.failure === 'unavailable'
          ? 'unavailable'
          : 'malformed';
    throw new CloudError(call.cloud, failure, error.message);
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
