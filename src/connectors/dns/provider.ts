import { z } from 'zod';
import { INPUT_MESSAGES } from '../../model/messages.ts';
import { PAGE_ANSWER_BYTES } from '../http/client.ts';
import { ConnectorError, SENTENCES } from '../http/error.ts';

export const PROVIDER_IDS = ['cloudflare', 'route53', 'digitalocean', 'gcloud'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/**
 * Why a provider call failed. `credentials`: the provider refused the credential or its rights
 * (the product answers 400 with the message); `not-found`: the credential cannot see that zone;
 * `unavailable`: the provider kept failing (5xx, 429, timeouts) after the retries; `malformed`:
 * an answer that is not what the provider documents; `too-large`: a zone with more records than the
 * product keeps for one domain.
 */
export type ProviderFailure = 'credentials' | 'not-found' | 'unavailable' | 'malformed' | 'too-large';

/** How each provider is named to people. */
export const PROVIDER_NAMES: Record<ProviderId, string> = {
  cloudflare: 'Cloudflare',
  route53: 'Amazon Route 53',
  digitalocean: 'DigitalOcean',
  gcloud: 'Google Cloud DNS',
};

/**
 * A provider call that failed. `words` are the provider's own (or what was wrong with its answer),
 * kept as the detail; the message is `sentence`, else the plain sentence for the failure. Neither
 * holds a credential.
 */
export class ProviderError extends ConnectorError {
  override name = 'ProviderError';
  declare readonly provider: ProviderId;
  declare readonly failure: ProviderFailure;
  constructor(provider: ProviderId, failure: ProviderFailure, words: string | undefined, sentence?: string) {
    super(provider, failure, {
      message: sentence ?? SENTENCES[failure](PROVIDER_NAMES[provider]),
      detail: words,
    });
  }
}

export interface ProviderCallOptions {
  /** The API's base URL; else its environment variable, else the provider's public endpoint. */
  baseUrl?: string;
  /** Deadline of each HTTP call, in ms. */
  timeoutMs?: number;
  /** Retries of a 429 or 5xx answer (or a timeout) before the call fails. */
  maxRetries?: number;
  /** First backoff after a 5xx, doubled at each retry; 429 waits what `Retry-After` says. */
  retryBaseMs?: number;
  /** Records per page asked for (the provider may cap it lower). */
  pageSize?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** An answer larger than this is refused, not read into memory. */
  maxBodyBytes?: number;
}

export const CALL_DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 4,
  retryBaseMs: 500,
  maxRetryAfterMs: 60_000,
  maxBodyBytes: PAGE_ANSWER_BYTES,
};

/**
 * Where the provider means a zone to be served from: the name servers it assigned to the zone, and
 * whether the provider itself counts the zone as in service (Cloudflare leaves zones that nobody
 * delegated `pending`). Anyone can create a zone for any name at these providers, so the zone's
 * existence proves nothing; public DNS pointing at these name servers does.
 */
export interface ZoneDelegation {
  /** Lower case, no trailing dot. */
  nameServers: string[];
  /** False when the provider says the zone is not in service yet; its own word is in `status`. */
  active: boolean;
  status?: string;
}

const secret = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  // Checked here, before any provider call: fetch refuses a header with other characters, in an
  // error that would read as the provider's.
  .regex(/^[\x20-\x7e]*$/, INPUT_MESSAGES.notAscii);
export const credentialSchemas = {
  cloudflare: z.object({ apiToken: secret }),
  route53: z.object({ accessKeyId: secret, secretAccessKey: secret }),
  digitalocean: z.object({ token: secret }),
  gcloud: z.object({
    serviceAccountJson: z
      .string()
      .min(1)
      .max(64 * 1024),
  }),
} as const;

/** The base URL from the options, the environment or the default, checked to be http(s). */
export function baseUrl(options: ProviderCallOptions | undefined, variable: string, fallback: string) {
  const value = options?.baseUrl ?? (options?.env ?? process.env)[variable] ?? fallback;
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be an http(s) URL, got '${value}'`);
  return parsed.data.replace(/\/+$/, '');
}
