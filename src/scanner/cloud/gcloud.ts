import { createPrivateKey, sign } from 'node:crypto';
import { z } from 'zod';
import { cloudJson } from './http.ts';
import {
  type CloudCallOptions,
  CloudError,
  type CloudProvider,
  type CloudSnapshot,
  cloudCredentialSchemas,
  endpointFrom,
} from './provider.ts';

type Credentials = z.infer<typeof cloudCredentialSchemas.gcloud>;

const COMPUTE_URL = 'https://compute.googleapis.com';
const STORAGE_URL = 'https://storage.googleapis.com';
const RESOURCE_MANAGER_URL = 'https://cloudresourcemanager.googleapis.com';
/**
 * Rights an inventory never needs, asked of the project with testIamPermissions (which needs no
 * right of its own): what a key with Editor or Owner would hold.
 */
const WRITE_PERMISSIONS = [
  'compute.addresses.create',
  'compute.addresses.delete',
  'compute.instances.create',
  'compute.instances.delete',
  'compute.firewalls.update',
  'compute.forwardingRules.delete',
  'storage.buckets.create',
  'storage.buckets.delete',
  'storage.objects.create',
  'iam.serviceAccountKeys.create',
  'resourcemanager.projects.setIamPolicy',
];
/** Google's token endpoint: the only one a user's key may lead us to (GOOGLE_OAUTH_TOKEN_URL aside). */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Read-only across the platform: what roles/compute.viewer and storage.buckets.list then narrow. */
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform.read-only';

const serviceAccount = z.object({
  type: z.literal('service_account'),
  project_id: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$|^[a-z0-9.:-]{1,100}$/),
  client_email: z.email(),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().optional(),
});
const tokenAnswer = z.object({ access_token: z.string().min(1) });
const tokenReason = (body: unknown) => {
  const parsed = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(body);
  if (!parsed.success) return undefined;
  return `Google OAuth: ${parsed.data.error}${parsed.data.error_description ? `: ${parsed.data.error_description}` : ''}`;
};
const apiReason = (body: unknown) => {
  const parsed = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
  return parsed.success ? `Google Cloud: ${parsed.data.error.message}` : undefined;
};
const refused = (message: string): never => {
  throw new CloudError('gcloud', 'credentials', `Google Cloud: ${message}`);
};

/** An aggregatedList page: per region or zone, its items (or a warning that there are none). */
const aggregated = <T extends z.ZodType>(key: string, item: T) =>
  z.object({
    items: z.record(z.string(), z.object({ [key]: z.array(item).optional() }).loose()).default({}),
    nextPageToken: z.string().optional(),
  });
const schemas = {
  addresses: aggregated(
    'addresses',
    z
      .object({ name: z.string(), address: z.string().optional(), addressType: z.string().optional() })
      .loose(),
  ),
  instances: aggregated(
    'instances',
    z
      .object({
        name: z.string(),
        networkInterfaces: z
          .array(
            z
              .object({
                accessConfigs: z.array(z.object({ natIP: z.string().optional() }).loose()).optional(),
                ipv6AccessConfigs: z
                  .array(z.object({ externalIpv6: z.string().optional() }).loose())
                  .optional(),
              })
              .loose(),
          )
          .optional(),
      })
      .loose(),
  ),
  forwardingRules: aggregated(
    'forwardingRules',
    z
      .object({
        name: z.string(),
        IPAddress: z.string().optional(),
        loadBalancingScheme: z.string().optional(),
      })
      .loose(),
  ),
  buckets: z.object({
    items: z.array(z.object({ name: z.string(), location: z.string().optional() }).loose()).optional(),
    nextPageToken: z.string().optional(),
  }),
};

function account(credentials: Credentials) {
  let json: unknown;
  try {
    json = JSON.parse(credentials.serviceAccountKey);
  } catch {
    refused('the service-account key is not JSON');
  }
  const parsed = serviceAccount.safeParse(json);
  if (!parsed.success)
    refused(`the service-account key lacks a valid ${parsed.error.issues[0]?.path.join('.') ?? 'field'}`);
  return parsed.data as z.infer<typeof serviceAccount>;
}

/**
 * An access token by the JWT-bearer grant (RFC 7523), signed RS256 with node:crypto, sent only to
 * Google's token endpoint (or GOOGLE_OAUTH_TOKEN_URL): a key whose token_uri points elsewhere is
 * refused, or a user could make our server post to an internal address.
 */
async function accessToken(credentials: Credentials, options: CloudCallOptions | undefined) {
  const sa = account(credentials);
  const tokenUrl = endpointFrom(options, 'GOOGLE_OAUTH_TOKEN_URL') ?? GOOGLE_TOKEN_URL;
  if (sa.token_uri !== undefined && sa.token_uri !== GOOGLE_TOKEN_URL && sa.token_uri !== tokenUrl)
    refused(`the key's token_uri is not Google's token endpoint (${GOOGLE_TOKEN_URL})`);
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) })}.${encode({ iss: sa.client_email, scope: SCOPE, aud: tokenUrl, iat: now, exp: now + 3600 })}`;
  let signature = '';
  try {
    signature = sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(sa.private_key)).toString(
      'base64url',
    );
  } catch {
    refused("the key's private_key is not a usable RSA private key");
  }
  const answer = await cloudJson({
    cloud: 'gcloud',
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
  options: CloudCallOptions | undefined,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  do {
    const next = new URL(url);
    if (pageToken) next.searchParams.set('pageToken', pageToken);
    const body: T = await cloudJson({
      cloud: 'gcloud',
      url: next.toString(),
      headers: { authorization: `Bearer ${token}` },
      schema,
      reason: apiReason,
      options,
    });
    yield body;
    if (body.nextPageToken && body.nextPageToken === pageToken)
      throw new CloudError('gcloud', 'malformed', 'Google Cloud sent the same page token twice');
    pageToken = body.nextPageToken || undefined;
  } while (pageToken);
}

/**
 * Google Cloud's Compute Engine and Cloud Storage JSON APIs with a service-account key: the
 * project's external addresses, instances' external IPs, forwarding rules (aggregatedList, paged
 * by pageToken) and its buckets. Every call is a GET, but the token request.
 */
export const gcloud: CloudProvider<Credentials> = {
  id: 'gcloud',
  credentials: cloudCredentialSchemas.gcloud,
  async check(credentials, options) {
    const { project, token } = await accessToken(credentials, options);
    const compute = endpointFrom(options, 'GOOGLE_COMPUTE_API_URL') ?? COMPUTE_URL;
    const url = `${compute}/compute/v1/projects/${encodeURIComponent(project)}/aggregated/addresses?maxResults=1`;
    await cloudJson({
      cloud: 'gcloud',
      url,
      headers: { authorization: `Bearer ${token}` },
      schema: schemas.addresses,
      reason: apiReason,
      options,
    });
  },
  async read(credentials, options) {
    const { project, token } = await accessToken(credentials, options);
    const compute = endpointFrom(options, 'GOOGLE_COMPUTE_API_URL') ?? COMPUTE_URL;
    const storage = endpointFrom(options, 'GOOGLE_STORAGE_API_URL') ?? STORAGE_URL;
    const base = `${compute}/compute/v1/projects/${encodeURIComponent(project)}/aggregated`;
    const snapshot: CloudSnapshot = { accounts: [project], addresses: [], resources: [] };
    const region = (scope: string) => scope.split('/')[1];
    for await (const page of pages(`${base}/addresses?maxResults=500`, schemas.addresses, token, options))
      for (const [scope, list] of Object.entries(page.items))
        for (const a of list.addresses ?? [])
          if (a.address && a.addressType !== 'INTERNAL')
            snapshot.addresses.push({
              address: a.address,
              type: 'address',
              name: a.name,
              region: region(scope),
            });
    for await (const page of pages(`${base}/instances?maxResults=500`, schemas.instances, token, options))
      for (const [scope, list] of Object.entries(page.items))
        for (const instance of list.instances ?? [])
          for (const nic of instance.networkInterfaces ?? []) {
            for (const c of nic.accessConfigs ?? [])
              if (c.natIP)
                snapshot.addresses.push({
                  address: c.natIP,
                  type: 'instance',
                  name: instance.name,
                  region: region(scope),
                });
            for (const c of nic.ipv6AccessConfigs ?? [])
              if (c.externalIpv6)
                snapshot.addresses.push({
                  address: c.externalIpv6,
                  type: 'instance',
                  name: instance.name,
                  region: region(scope),
                });
          }
    for await (const page of pages(
      `${base}/forwardingRules?maxResults=500`,
      schemas.forwardingRules,
      token,
      options,
    ))
      for (const [scope, list] of Object.entries(page.items))
        for (const rule of list.forwardingRules ?? [])
          if (rule.IPAddress && !(rule.loadBalancingScheme ?? '').startsWith('INTERNAL'))
            snapshot.addresses.push({
              address: rule.IPAddress,
              type: 'forwarding-rule',
              name: rule.name,
              region: region(scope),
            });
    const buckets = `${storage}/storage/v1/b?project=${encodeURIComponent(project)}&maxResults=1000&fields=items(name,location),nextPageToken`;
    for await (const page of pages(buckets, schemas.buckets, token, options))
      for (const bucket of page.items ?? []) {
        const region = bucket.location?.toLowerCase();
        snapshot.resources.push({
          type: 'bucket',
          host: `${bucket.name}.storage.googleapis.com`.toLowerCase(),
          name: bucket.name,
          region,
        });
        // A bucket named like a domain serves that name through a CNAME to c.storage.googleapis.com.
        if (bucket.name.includes('.'))
          snapshot.resources.push({
            type: 'bucket',
            host: bucket.name.toLowerCase(),
            name: bucket.name,
            region,
          });
      }
    return snapshot;
  },
  async unneededRights(credentials, snapshot, options) {
    const { token } = await accessToken(credentials, options);
    const base = endpointFrom(options, 'GOOGLE_RESOURCE_MANAGER_API_URL') ?? RESOURCE_MANAGER_URL;
    const unneeded = new Set<string>();
    for (const project of snapshot.accounts) {
      // A POST that changes nothing: it answers which of the listed permissions the caller holds.
      const answer = await cloudJson({
        cloud: 'gcloud',
        url: `${base}/v1/projects/${encodeURIComponent(project)}:testIamPermissions`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: WRITE_PERMISSIONS }),
        schema: z.object({ permissions: z.array(z.string()).default([]) }),
        reason: apiReason,
        options,
      });
      for (const permission of answer.permissions) unneeded.add(permission);
    }
    return [...unneeded].sort();
  },
};
