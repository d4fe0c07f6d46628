import { z } from 'zod';
import { callJson } from '../../../connectors/dns/http.ts';
import {
  baseUrl,
  credentialSchemas,
  type ProviderCallOptions,
  ProviderError,
} from '../../../connectors/dns/provider.ts';
import {
  GOOGLE_TOKEN_URL,
  googlePages,
  jwtBearerForm,
  serviceAccountFrom,
  tokenAnswer,
  tokenReason,
} from '../../../connectors/gcloud/google-api.ts';
import { hostName } from '../presentation.ts';
import type { ZoneRecord } from '../record.ts';
import { presentationData } from '../zone-file.ts';
import { zoneName } from './names.ts';
import type { DnsProvider } from './provider.ts';

const DEFAULT_URL = 'https://dns.googleapis.com';
const SCOPE = 'https://www.googleapis.com/auth/ndev.clouddns.readonly';
const MAX_RESULTS = 1000;

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

type Credentials = z.infer<typeof credentialSchemas.gcloud>;

function refused(message: string): never {
  throw new ProviderError('gcloud', 'credentials', `Google Cloud DNS: ${message}`);
}

/**
 * An access token by the OAuth2 JWT-bearer grant (RFC 7523), signed RS256 with node:crypto. The
 * token goes only to Google's endpoint, or to `GOOGLE_OAUTH_TOKEN_URL` when the operator set one:
 * a `token_uri` of the user's JSON pointing elsewhere is refused, or a user could make our server
 * post to an internal address.
 */
async function accessToken(credentials: Credentials, options: ProviderCallOptions | undefined) {
  const tokenUrl = (options?.env ?? process.env).GOOGLE_OAUTH_TOKEN_URL ?? GOOGLE_TOKEN_URL;
  const sa = serviceAccountFrom(credentials.serviceAccountJson, tokenUrl, refused);
  const answer = await callJson({
    provider: 'gcloud',
    url: tokenUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: jwtBearerForm(sa, SCOPE, tokenUrl, refused),
    schema: tokenAnswer,
    reason: tokenReason,
    refusedStatuses: [400, 401, 403],
    options,
  });
  return { project: sa.project_id, token: answer.access_token };
}

function pages<T extends { nextPageToken?: string }>(
  url: string,
  schema: z.ZodType<T>,
  token: string,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<T> {
  return googlePages(
    url,
    (next) =>
      callJson({
        provider: 'gcloud',
        url: next,
        headers: { authorization: `Bearer ${token}` },
        schema,
        reason: apiReason,
        options,
      }),
    () => new ProviderError('gcloud', 'malformed', 'Google Cloud DNS sent the same page token twice'),
  );
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
