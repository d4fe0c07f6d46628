import { createPrivateKey, sign } from 'node:crypto';
import { z } from 'zod';
import { hostName } from '../presentation.ts';
import type { ZoneRecord } from '../record.ts';
import { presentationData } from '../zone-file.ts';
import { callJson } from './http.ts';
import { zoneName } from './names.ts';
import {
  baseUrl,
  credentialSchemas,
  type DnsProvider,
  type ProviderCallOptions,
  ProviderError,
} from './provider.ts';

const DEFAULT_URL = 'https://dns.googleapis.com';
/** Google's token endpoint: the only one a user's service-account JSON may lead us to. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/ndev.clouddns.readonly';
const MAX_RESULTS = 1000;

const serviceAccount = z.object({
  type: z.literal('service_account'),
  project_id: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$|^[a-z0-9.:-]{1,100}$/),
  client_email: z.email(),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().optional(),
});

const tokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string().optional() });
const zonesPage = z.object({
  managedZones: z
    .array(
      z
        .object({
          name: z.string().min(1),
          dnsName: z.string().min(1),
          visibility: z.string().optional(),
          nameServers: z.array(z.string()).default([]),
        })
        .loose(),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});
const rrsetsPage = z.object({
  rrsets: z
    .array(
      z
        .object({
          name: z.string().min(1),
          type: z.string().min(1),
          ttl: z.number().int().nonnegative().default(0),
          rrdatas: z.array(z.string()).default([]),
        })
        .loose(),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

const apiReason = (body: unknown) => {
  const parsed = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
  return parsed.success ? `Google Cloud DNS: ${parsed.data.error.message}` : undefined;
};
const tokenReason = (body: unknown) => {
  const parsed = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(body);
  if (!parsed.success) return undefined;
  const { error, error_description } = parsed.data;
  return `Google OAuth: ${error}${error_description ? `: ${error_description}` : ''}`;
};

type Credentials = z.infer<typeof credentialSchemas.gcloud>;

function refused(message: string): never {
  throw new ProviderError('gcloud', 'credentials', `Google Cloud DNS: ${message}`);
}

/** The service account, checked; its private key never appears in an error. */
function account(credentials: Credentials) {
  let json: unknown;
  try {
    json = JSON.parse(credentials.serviceAccountJson);
  } catch {
    refused('the service-account key is not JSON');
  }
  const parsed = serviceAccount.safeParse(json);
  if (!parsed.success)
    refused(`the service-account key lacks a valid ${parsed.error.issues[0]?.path.join('.') ?? 'field'}`);
  return parsed.data;
}

/**
 * An access token by the OAuth2 JWT-bearer grant (RFC 7523), signed RS256 with node:crypto. The
 * token goes only to Google's endpoint, or to `GOOGLE_OAUTH_TOKEN_URL` when the operator set one:
 * a `token_uri` of the user's JSON pointing elsewhere is refused, or a user could make our server
 * post to an internal address.
 */
async function accessToken(credentials: Credentials, options: ProviderCallOptions | undefined) {
  const sa = account(credentials);
  const tokenUrl = (options?.env ?? process.env).GOOGLE_OAUTH_TOKEN_URL ?? GOOGLE_TOKEN_URL;
  if (sa.token_uri !== undefined && sa.token_uri !== GOOGLE_TOKEN_URL && sa.token_uri !== tokenUrl)
    refused(`the key's token_uri is not Google's token endpoint (${GOOGLE_TOKEN_URL})`);
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) })}.${encode({ iss: sa.client_email, scope: SCOPE, aud: tokenUrl, iat: now, exp: now + 3600 })}`;
  let signature: string;
  try {
    signature = sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(sa.private_key)).toString(
      'base64url',
    );
  } catch {
    refused("the key's private_key is not a usable RSA private key");
  }
  const answer = await callJson({
    provider: 'gcloud',
    url: tokenUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${unsigned}.${signature}`,
    }).toString(),
    schema: tokenAnswer,
    reason: tokenReason,
    refusedStatuses: [400, 401, 403],
    options,
  });
  return { project: sa.project_id, token: answer.access_token };
}

async function* pages<T extends { nextPageToken?: string }>(
  url: string,
  schema: z.ZodType<T>,
  token: string,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  do {
    const next = new URL(url);
    if (pageToken) next.searchParams.set('pageToken', pageToken);
    const body: T = await callJson({
      provider: 'gcloud',
      url: next.toString(),
      headers: { authorization: `Bearer ${token}` },
      schema,
      reason: apiReason,
      options,
    });
    yield body;
    if (body.nextPageToken && body.nextPageToken === pageToken)
      throw new ProviderError('gcloud', 'malformed', 'Google Cloud DNS sent the same page token twice');
    pageToken = body.nextPageToken || undefined;
  } while (pageToken);
}

interface ManagedZone {
  id: string;
  name: string;
  nameServers: string[];
  base: string;
  project: string;
  token: string;
}

async function* managedZones(
  credentials: Credentials,
  options: ProviderCallOptions | undefined,
  dnsName?: string,
): AsyncGenerator<ManagedZone> {
  const base = baseUrl(options, 'GOOGLE_DNS_API_URL', DEFAULT_URL);
  const { project, token } = await accessToken(credentials, options);
  const url = new URL(`${base}/dns/v1/projects/${encodeURIComponent(project)}/managedZones`);
  url.searchParams.set('maxResults', String(MAX_RESULTS));
  if (dnsName) url.searchParams.set('dnsName', `${dnsName}.`);
  // A private zone answers only inside its VPC: nothing on the internet can dangle from it.
  for await (const body of pages(url.toString(), zonesPage, token, options))
    for (const zone of body.managedZones)
      if (zone.visibility !== 'private')
        yield {
          id: zone.name,
          name: zoneName(zone.dnsName),
          nameServers: zone.nameServers.map(zoneName),
          base,
          project,
          token,
        };
}

async function findZone(
  credentials: Credentials,
  name: string,
  options: ProviderCallOptions | undefined,
): Promise<ManagedZone> {
  for await (const candidate of managedZones(credentials, options, name))
    if (candidate.name === name) return candidate;
  throw new ProviderError('gcloud', 'not-found', `Google Cloud DNS: no public managed zone ${name}`);
}

/** Google Cloud DNS's REST API v1 with a service account holding `roles/dns.reader`. */
export const gcloud: DnsProvider<Credentials> = {
  id: 'gcloud',
  label: 'Google Cloud DNS',
  credentials: credentialSchemas.gcloud,
  async listZones(credentials, options) {
    const zones: string[] = [];
    for await (const zone of managedZones(credentials, options)) zones.push(zone.name);
    return zones;
  },
  async *readZone(credentials, zone, options) {
    const name = zoneName(zone);
    const found = await findZone(credentials, name, options);
    const url = new URL(
      `${found.base}/dns/v1/projects/${encodeURIComponent(found.project)}/managedZones/${encodeURIComponent(found.id)}/rrsets`,
    );
    url.searchParams.set('maxResults', String(Math.min(options?.pageSize ?? MAX_RESULTS, MAX_RESULTS)));
    for await (const body of pages(url.toString(), rrsetsPage, found.token, options)) {
      for (const rrset of body.rrsets) {
        const type = rrset.type.toUpperCase();
        for (const rrdata of rrset.rrdatas) {
          let data: string;
          try {
            data = presentationData(type, rrdata, name);
          } catch (error) {
            throw new ProviderError(
              'gcloud',
              'malformed',
              `Google Cloud DNS sent a ${type} record it cannot read: ${(error as Error).message.replace(/^line 1: /, '')}`,
            );
          }
          const record: ZoneRecord = { name: hostName(rrset.name), type, ttl: rrset.ttl, data };
          yield record;
        }
      }
    }
  },
  async delegation(credentials, zone, options) {
    const found = await findZone(credentials, zoneName(zone), options);
    return { nameServers: found.nameServers, active: true };
  },
};
