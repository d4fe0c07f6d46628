import { z } from 'zod';
import { cloudJson } from '../cloud/http.ts';
import {
  type CloudCallOptions,
  CloudError,
  type CloudProvider,
  type CloudSnapshot,
  cloudCredentialSchemas,
  endpointFrom,
} from '../cloud/provider.ts';
import {
  GOOGLE_TOKEN_URL,
  googlePages,
  jwtBearerForm,
  serviceAccountFrom,
  tokenAnswer,
  tokenReason,
} from './google-api.ts';

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
/**
 * Read-only scopes, space-separated, that the token carries; the roles (compute.viewer,
 * storage.buckets.list) then narrow them. Compute Engine takes no cloud-platform.read-only token
 * (its discovery document lists cloud-platform, compute and compute.readonly only), so its own
 * read-only scope rides along for it; Cloud Storage and Resource Manager take cloud-platform.read-only.
 */
const SCOPE = [
  'https://www.googleapis.com/auth/compute.readonly',
  'https://www.googleapis.com/auth/cloud-platform.read-only',
].join(' ');

const apiReason = (body: unknown) => {
  const parsed = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
  return parsed.success ? `Google Cloud: ${parsed.data.error.message}` : undefined;
};
/** The pasted key failed our own checks before any call: our words, no provider's. */
const refused = (message: string): never => {
  throw new CloudError('gcloud', 'credentials', undefined, `DangleWatch cannot use this key: ${message}`);
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

/**
 * An access token by the JWT-bearer grant (RFC 7523), signed RS256 with node:crypto, sent only to
 * Google's token endpoint (or GOOGLE_OAUTH_TOKEN_URL): a key whose token_uri points elsewhere is
 * refused, or a user could make our server post to an internal address.
 */
async function accessToken(credentials: Credentials, options: CloudCallOptions | undefined) {
  const tokenUrl = endpointFrom(options, 'GOOGLE_OAUTH_TOKEN_URL') ?? GOOGLE_TOKEN_URL;
  const sa = serviceAccountFrom(credentials.serviceAccountKey, tokenUrl, refused);
  const answer = await cloudJson({
    cloud: 'gcloud',
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
  options: CloudCallOptions | undefined,
): AsyncGenerator<T> {
  return googlePages(
    url,
    (next) =>
      cloudJson({
        cloud: 'gcloud',
        url: next,
        headers: { authorization: `Bearer ${token}` },
        schema,
        reason: apiReason,
        options,
      }),
    () => new CloudError('gcloud', 'malformed', 'Google Cloud sent the same page token twice'),
  );
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
