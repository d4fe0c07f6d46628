import { z } from 'zod';
import { CLOUD_PROVIDER_IDS, type CloudProviderId } from '../../model/contract.ts';
import { INPUT_MESSAGES } from '../../model/messages.ts';
import { ConnectorError, SENTENCES } from '../http/error.ts';

export const CLOUD_IDS = CLOUD_PROVIDER_IDS;
export type CloudId = CloudProviderId;

/** How each cloud is named to people: in evidence, texts and the settings page. */
export const CLOUD_NAMES: Record<CloudId, string> = {
  aws: 'AWS',
  azure: 'Microsoft Azure',
  gcloud: 'Google Cloud',
  digitalocean: 'DigitalOcean',
};

/**
 * Why a cloud call failed: `credentials`, the cloud refused the key or its rights (the product
 * answers 400 with the message); `unavailable`, it kept failing (5xx, throttling, timeouts) after the
 * retries; `malformed`, an answer that is not what the cloud documents.
 */
export type CloudFailure = 'credentials' | 'unavailable' | 'malformed';

/**
 * A cloud call that failed. `words` are the cloud's own (or what was wrong with its answer), kept as
 * the detail; the message is `sentence`, else the plain sentence for the failure. Neither holds the
 * credential.
 */
export class CloudError extends ConnectorError {
  override name = 'CloudError';
  readonly cloud: CloudId;
  declare readonly failure: CloudFailure;
  constructor(cloud: CloudId, failure: CloudFailure, words: string | undefined, sentence?: string) {
    super(CLOUD_NAMES[cloud], failure, {
      message: sentence ?? SENTENCES[failure](CLOUD_NAMES[cloud]),
      detail: words,
    });
    this.cloud = cloud;
  }
}

export interface CloudCallOptions {
  /** The environment the endpoints are read from (`AWS_EC2_ENDPOINT`, …); process.env when absent. */
  env?: NodeJS.ProcessEnv;
  /** Deadline of each HTTP call, in ms. */
  timeoutMs?: number;
  /** Retries of a throttled or failed call before it fails. */
  maxRetries?: number;
  /** First backoff after a 5xx, doubled at each retry; 429 waits what `Retry-After` says. */
  retryBaseMs?: number;
  signal?: AbortSignal;
}

export const CLOUD_CALL_DEFAULTS = { timeoutMs: 30_000, maxRetries: 4 };

/** A public address the account holds, and what holds it. */
export interface HeldAddress {
  address: string;
  /** elastic-ip, instance, network-interface, accelerator, static-ip, … */
  type: string;
  /** The holder's id or name (an instance id, an allocation id). */
  name: string;
  region?: string;
}

/** A named resource the account has, by the host name a CNAME would point at. */
export interface HeldResource {
  /** bucket, distribution, environment, site, endpoint. */
  type: string;
  /** The host name, lower case, no trailing dot. */
  host: string;
  name: string;
  region?: string;
}

/** One complete read of an account: everything public it holds now. */
export interface CloudSnapshot {
  /** The account, subscription or project ids the credential reads. */
  accounts: string[];
  addresses: HeldAddress[];
  resources: HeldResource[];
}

/** A cloud's read-only API: every call a Describe, List or Get. */
export interface CloudProvider<C> {
  id: CloudId;
  credentials: z.ZodType<C>;
  /** One cheap read: does the cloud accept this credential? Throws CloudError when it does not. */
  check(credentials: C, options?: CloudCallOptions): Promise<void>;
  read(credentials: C, options?: CloudCallOptions): Promise<CloudSnapshot>;
  /**
   * The rights the credential has beyond reading, named as the cloud names them, where the cloud
   * can tell with a read call; null when this credential may not ask (AWS without
   * iam:SimulatePrincipalPolicy); absent where the cloud cannot tell at all (DigitalOcean).
   */
  unneededRights?(
    credentials: C,
    snapshot: CloudSnapshot,
    options?: CloudCallOptions,
  ): Promise<string[] | null>;
}

const secret = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  // Checked before any call: an HTTP header cannot carry other characters.
  .regex(/^[\x20-\x7e]*$/, INPUT_MESSAGES.notAscii);

export const cloudCredentialSchemas = {
  aws: z.strictObject({
    accessKeyId: secret,
    secretAccessKey: secret,
    roleArn: z
      .string()
      .trim()
      .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, 'must be an IAM role ARN')
      .optional(),
  }),
  azure: z.strictObject({ tenantId: secret, clientId: secret, clientSecret: secret }),
  gcloud: z.strictObject({
    serviceAccountKey: z
      .string()
      .min(1)
      .max(64 * 1024),
  }),
  digitalocean: z.strictObject({ token: secret }),
} as const;

/** An endpoint from the environment, checked to be http(s); undefined when the cloud's own is meant. */
export function endpointFrom(options: CloudCallOptions | undefined, variable: string): string | undefined {
  const value = (options?.env ?? process.env)[variable];
  if (value === undefined || value === '') return undefined;
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success)
    throw new Error(`${variable} must be an http(s) URL, got '${value}'`);
  return value.replace(/\/+$/, '');
}

/**
 * An address in one spelling: IPv6 lower case and compressed as URLs write it (`2600:1f18:0:0::1`
 * and `2600:1F18::1` are one address), IPv4 as given. Clouds and DNS answers spell them their ways.
 */
export function canonicalAddress(address: string): string {
  if (!address.includes(':')) return address.trim();
  try {
    return new URL(`http://[${address.trim()}]/`).hostname.slice(1, -1);
  } catch {
    return address.trim().toLowerCase();
  }
}
