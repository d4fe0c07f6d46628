import { z } from 'zod';
import { callJson } from '../dns/http.ts';
import { baseUrl, type credentialSchemas, type ProviderCallOptions, ProviderError } from '../dns/provider.ts';
import {
  GOOGLE_TOKEN_URL,
  googlePages,
  jwtBearerForm,
  serviceAccountFrom,
  tokenAnswer,
  tokenReason,
} from './google-api.ts';

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

export type Credentials = z.infer<typeof credentialSchemas.gcloud>;

/** The pasted key failed our own checks before any call: our words, no provider's. */
function refused(message: string): never {
  throw new ProviderError('gcloud', 'credentials', undefined, `DangleWatch cannot use this key: ${message}`);
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

/** A public managed zone as Cloud DNS lists it (names with their trailing dot), and how to read it. */
export interface ManagedZone {
  id: string;
  dnsName: string;
  nameServers: string[];
  base: string;
  project: string;
  token: string;
}

/** The project's public managed zones, or those named `dnsName` (no trailing dot). */
export async function* managedZones(
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
        yield { id: zone.name, dnsName: zone.dnsName, nameServers: zone.nameServers, base, project, token };
}

/** One resource record set as Cloud DNS gives it: its data in presentation form, one string each. */
export type RecordSet = z.infer<typeof rrsetsPage>['rrsets'][number];

/** Every record set of a managed zone, page after page. */
export async function* recordSets(
  zone: ManagedZone,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<RecordSet> {
  const url = new URL(
    `${zone.base}/dns/v1/projects/${encodeURIComponent(zone.project)}/managedZones/${encodeURIComponent(zone.id)}/rrsets`,
  );
  url.searchParams.set('maxResults', String(Math.min(options?.pageSize ?? MAX_RESULTS, MAX_RESULTS)));
  for await (const body of pages(url.toString(), rrsetsPage, zone.token, options)) yield* body.rrsets;
}
