import Cloudflare from 'cloudflare';
import { z } from 'zod';
import {
  baseUrl,
  CALL_DEFAULTS,
  type credentialSchemas,
  type ProviderCallOptions,
  ProviderError,
  type ProviderFailure,
} from '../dns/provider.ts';
import { retryAfterMs } from '../http/retry-after.ts';

const DEFAULT_URL = 'https://api.cloudflare.com/client/v4';
/** Zones are listed at most 50 a page; DNS records far more, so ask for large pages. */
const ZONES_PER_PAGE = 50;
const RECORDS_PER_PAGE = 5000;
/** Codes Cloudflare answers a malformed or unknown token with, under status 400. */
const TOKEN_CODES = new Set([6003, 6111, 9106, 9109, 10000, 10001]);

const resultInfo = z.object({
  page: z.number().int().positive(),
  total_pages: z.number().int().nonnegative().optional(),
});
const zonePage = z.object({
  result: z.array(
    z
      .object({
        id: z.string().min(1),
        name: z.string().min(1),
        status: z.string().optional(),
        name_servers: z.array(z.string()).optional(),
      })
      .loose(),
  ),
  result_info: resultInfo,
});
export type Zone = z.infer<typeof zonePage>['result'][number];
const recordPage = z.object({
  result: z.array(
    z
      .object({
        name: z.string().min(1),
        type: z.string().min(1),
        content: z.string().optional(),
        ttl: z.number().int().nonnegative(),
        priority: z.number().int().nullish(),
        data: z
          .object({
            priority: z.number().int().optional(),
            weight: z.number().int().optional(),
            port: z.number().int().optional(),
            target: z.string().optional(),
          })
          .loose()
          .nullish(),
      })
      .loose(),
  ),
  result_info: resultInfo,
});

export type Credentials = z.infer<typeof credentialSchemas.cloudflare>;

/**
 * The SDK waits out any `Retry-After`, however long; past our cap the answer is marked not to be
 * retried (the SDK's `x-should-retry`), so the call fails as unavailable instead of hanging.
 */
const cappedRetryAfter = async (input: string | URL | Request, init?: RequestInit) => {
  const response = await fetch(input, init);
  const wait = retryAfterMs(response.headers.get('retry-after'));
  if (wait === undefined || wait <= CALL_DEFAULTS.maxRetryAfterMs) return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

function client(credentials: Credentials, options: ProviderCallOptions | undefined) {
  return new Cloudflare({
    apiToken: credentials.apiToken,
    // The SDK would otherwise pick up a global API key or e-mail from the server's environment.
    apiKey: null,
    apiEmail: null,
    userServiceKey: null,
    baseURL: baseUrl(options, 'CLOUDFLARE_API_URL', DEFAULT_URL),
    timeout: options?.timeoutMs ?? CALL_DEFAULTS.timeoutMs,
    maxRetries: options?.maxRetries ?? CALL_DEFAULTS.maxRetries,
    logLevel: 'off',
    fetch: cappedRetryAfter,
  });
}

/** The SDK's errors as `ProviderError`s carrying Cloudflare's own messages and codes. */
function translate(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof Cloudflare.APIConnectionError)
    return new ProviderError('cloudflare', 'unavailable', `Cloudflare API unreachable: ${error.message}`);
  if (error instanceof Cloudflare.APIError) {
    const codes = error.errors.map((e) => e.code);
    const reason =
      error.errors.map((e) => `${e.message} (code ${e.code})`).join('; ') || `HTTP ${error.status}`;
    const status = error.status ?? 0;
    let failure: ProviderFailure = 'malformed';
    if (
      status === 401 ||
      status === 403 ||
      (status === 400 && codes.some((c) => c !== undefined && TOKEN_CODES.has(c)))
    )
      failure = 'credentials';
    else if (status === 404) failure = 'not-found';
    else if (status === 429 || status >= 500) failure = 'unavailable';
    return new ProviderError('cloudflare', failure, reason);
  }
  return new ProviderError(
    'cloudflare',
    'malformed',
    `Cloudflare API sent an unexpected answer: ${(error as Error).message}`,
  );
}

function checked<T>(schema: z.ZodType<T>, page: unknown): T {
  const parsed = schema.safeParse(page);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'cloudflare',
      'malformed',
      `Cloudflare API sent an unexpected answer (${issue?.path.join('.')}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

/** Pages of a v4 listing, read to `result_info.total_pages`; an empty page ends it too. */
async function* pages<T extends { result: unknown[]; result_info: { page: number; total_pages?: number } }>(
  first: Promise<{ hasNextPage(): boolean; getNextPage(): Promise<unknown> }>,
  schema: z.ZodType<T>,
): AsyncGenerator<T> {
  try {
    let page = await first;
    let previous = 0;
    for (;;) {
      const body = checked(schema, page);
      const { page: number, total_pages } = body.result_info;
      if (number <= previous)
        throw new ProviderError(
          'cloudflare',
          'malformed',
          `Cloudflare sent page ${number} after page ${previous}`,
        );
      previous = number;
      yield body;
      if (body.result.length === 0 || (total_pages !== undefined && number >= total_pages)) return;
      page = (await page.getNextPage()) as typeof page;
    }
  } catch (error) {
    throw translate(error);
  }
}

/** One DNS record as Cloudflare lists it. */
export type CloudflareRecord = z.infer<typeof recordPage>['result'][number];

/** The zones the token can read, or those named `name`, as Cloudflare lists them. */
export async function* zones(
  credentials: Credentials,
  options: ProviderCallOptions | undefined,
  name?: string,
): AsyncGenerator<Zone> {
  const api = client(credentials, options);
  for await (const page of pages(
    api.zones.list({ ...(name ? { name } : {}), per_page: ZONES_PER_PAGE }, { signal: options?.signal }),
    zonePage,
  ))
    yield* page.result;
}

/** Every DNS record of a zone, in pages as large as Cloudflare allows. */
export async function* dnsRecords(
  credentials: Credentials,
  zoneId: string,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<CloudflareRecord> {
  const api = client(credentials, options);
  const perPage = Math.min(options?.pageSize ?? RECORDS_PER_PAGE, RECORDS_PER_PAGE);
  for await (const page of pages(
    api.dns.records.list({ zone_id: zoneId, per_page: perPage }, { signal: options?.signal }),
    recordPage,
  ))
    yield* page.result;
}
