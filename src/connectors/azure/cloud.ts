import { z } from 'zod';
import { cloudJson, sameOrigin } from '../cloud/http.ts';
import {
  type CloudCallOptions,
  CloudError,
  type CloudProvider,
  type CloudSnapshot,
  cloudCredentialSchemas,
  endpointFrom,
} from '../cloud/provider.ts';

type Credentials = z.infer<typeof cloudCredentialSchemas.azure>;

const LOGIN_URL = 'https://login.microsoftonline.com';
const MANAGEMENT_URL = 'https://management.azure.com';

/**
 * Each list the inventory reads, at a stable API version whose specification in
 * Azure/azure-rest-api-specs has that list and every field read below.
 */
const LISTS = {
  subscriptions: '2022-12-01',
  publicIPAddresses: '2024-05-01',
  sites: '2023-12-01',
  trafficmanagerprofiles: '2022-04-01',
  storageAccounts: '2023-05-01',
  cdnProfiles: '2024-02-01',
  permissions: '2022-04-01',
} as const;

/** A cancelled subscription turns Disabled, then Deleted: nothing of it is left to read. */
const GONE_SUBSCRIPTIONS = new Set(['Disabled', 'Deleted']);

const tokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string().optional() });
const tokenReason = (body: unknown) => {
  const parsed = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(body);
  if (!parsed.success) return undefined;
  // The description's first line is the AADSTS code and sentence; the rest is trace ids.
  const description = parsed.data.error_description?.split(/\r?\n/)[0];
  return `Microsoft Entra ID: ${parsed.data.error}${description ? `: ${description}` : ''}`;
};
const armReason = (body: unknown) => {
  const parsed = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).safeParse(body);
  return parsed.success ? `Azure: ${parsed.data.error.code}: ${parsed.data.error.message}` : undefined;
};

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ value: z.array(item), nextLink: z.string().nullish() });
const named = { name: z.string(), location: z.string().optional() };
/** A storage account's service URLs (the Endpoints definition of Microsoft.Storage 2023-05-01). */
const storageEndpoints = z
  .object({
    blob: z.string().optional(),
    dfs: z.string().optional(),
    file: z.string().optional(),
    queue: z.string().optional(),
    table: z.string().optional(),
    web: z.string().optional(),
  })
  .loose();
const storageUrls = (endpoints: z.infer<typeof storageEndpoints> | undefined) =>
  endpoints
    ? [endpoints.blob, endpoints.dfs, endpoints.file, endpoints.queue, endpoints.table, endpoints.web]
    : [];
const schemas = {
  subscriptions: listOf(z.object({ subscriptionId: z.string(), state: z.string().optional() }).loose()),
  publicIPAddresses: listOf(
    z
      .object({
        ...named,
        properties: z
          .object({
            ipAddress: z.string().optional(),
            dnsSettings: z.object({ fqdn: z.string().optional() }).loose().optional(),
          })
          .loose()
          .default({}),
      })
      .loose(),
  ),
  sites: listOf(
    z
      .object({
        ...named,
        properties: z.object({ defaultHostName: z.string().optional() }).loose().default({}),
      })
      .loose(),
  ),
  trafficmanagerprofiles: listOf(
    z
      .object({
        ...named,
        properties: z
          .object({ dnsConfig: z.object({ fqdn: z.string().optional() }).loose().optional() })
          .loose()
          .default({}),
      })
      .loose(),
  ),
  storageAccounts: listOf(
    z
      .object({
        ...named,
        properties: z
          .object({
            primaryEndpoints: storageEndpoints
              .extend({
                // Published only under a routing preference, each its own host name.
                internetEndpoints: storageEndpoints.optional(),
                microsoftEndpoints: storageEndpoints.optional(),
              })
              .optional(),
          })
          .loose()
          .default({}),
      })
      .loose(),
  ),
  cdnProfiles: listOf(
    z.object({ ...named, id: z.string(), sku: z.object({ name: z.string() }).loose().optional() }).loose(),
  ),
  permissions: listOf(
    z
      .object({ actions: z.array(z.string()).default([]), notActions: z.array(z.string()).default([]) })
      .loose(),
  ),
  cdnEndpoints: listOf(
    z
      .object({ ...named, properties: z.object({ hostName: z.string().optional() }).loose().default({}) })
      .loose(),
  ),
};

const hostOf = (value: string) =>
  value
    .replace(/^https?:\/\//, '')
    .replace(/[/:].*$/, '')
    .toLowerCase();

/** An ARM token by the client-credentials grant: the management API's scope, read-only by the role given. */
async function token(credentials: Credentials, options: CloudCallOptions | undefined) {
  const login = endpointFrom(options, 'AZURE_LOGIN_URL') ?? LOGIN_URL;
  if (!/^[\w.-]{1,100}$/.test(credentials.tenantId))
    throw new CloudError(
      'azure',
      'credentials',
      'Microsoft Entra ID knows no such tenant',
      'The tenant id is not a Microsoft Entra tenant id or domain',
    );
  const management = endpointFrom(options, 'AZURE_MANAGEMENT_URL') ?? MANAGEMENT_URL;
  const answer = await cloudJson({
    cloud: 'azure',
    url: `${login}/${encodeURIComponent(credentials.tenantId)}/oauth2/v2.0/token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      scope: 'https://management.azure.com/.default',
    }).toString(),
    schema: tokenAnswer,
    reason: tokenReason,
    refusedStatuses: [400, 401, 403],
    options,
  });
  return { management, token: answer.access_token };
}

/** Every page of an ARM list, following `nextLink` on the management host only. */
async function* pages<T extends { nextLink?: string | null }>(
  api: { management: string; token: string },
  path: string,
  version: string,
  schema: z.ZodType<T>,
  options: CloudCallOptions | undefined,
): AsyncGenerator<T> {
  let url: string | undefined = `${api.management}${path}?api-version=${version}`;
  while (url) {
    const page: T = await cloudJson({
      cloud: 'azure',
      url,
      headers: { authorization: `Bearer ${api.token}` },
      schema,
      reason: armReason,
      options,
    });
    yield page;
    url = page.nextLink ? sameOrigin('azure', page.nextLink, api.management) : undefined;
  }
}

/**
 * Azure Resource Manager with a service principal holding Reader: per subscription, public IP
 * addresses (and their DNS labels), App Service sites, Traffic Manager profiles, storage accounts'
 * endpoints, CDN and Front Door endpoints. Every call is a GET, but the token request.
 */
export const azure: CloudProvider<Credentials> = {
  id: 'azure',
  credentials: cloudCredentialSchemas.azure,
  async check(credentials, options) {
    const api = await token(credentials, options);
    for await (const page of pages(
      api,
      '/subscriptions',
      LISTS.subscriptions,
      schemas.subscriptions,
      options,
    )) {
      if (page.value.length > 0) return;
    }
    throw new CloudError(
      'azure',
      'credentials',
      'no subscription listed',
      'The service principal can read no Azure subscription: give it the Reader role on each one to watch',
    );
  },
  async read(credentials, options) {
    const api = await token(credentials, options);
    const snapshot: CloudSnapshot = { accounts: [], addresses: [], resources: [] };
    for await (const page of pages(
      api,
      '/subscriptions',
      LISTS.subscriptions,
      schemas.subscriptions,
      options,
    ))
      for (const s of page.value)
        if (!GONE_SUBSCRIPTIONS.has(s.state ?? '')) snapshot.accounts.push(s.subscriptionId);
    for (const subscription of snapshot.accounts) {
      const at = (provider: string) =>
        `/subscriptions/${encodeURIComponent(subscription)}/providers/${provider}`;
      for await (const page of pages(
        api,
        at('Microsoft.Network/publicIPAddresses'),
        LISTS.publicIPAddresses,
        schemas.publicIPAddresses,
        options,
      ))
        for (const ip of page.value) {
          if (ip.properties.ipAddress)
            snapshot.addresses.push({
              address: ip.properties.ipAddress,
              type: 'public-ip',
              name: ip.name,
              region: ip.location,
            });
          const fqdn = ip.properties.dnsSettings?.fqdn;
          if (fqdn)
            snapshot.resources.push({
              type: 'endpoint',
              host: hostOf(fqdn),
              name: ip.name,
              region: ip.location,
            });
        }
      for await (const page of pages(api, at('Microsoft.Web/sites'), LISTS.sites, schemas.sites, options))
        for (const site of page.value)
          if (site.properties.defaultHostName)
            snapshot.resources.push({
              type: 'site',
              host: hostOf(site.properties.defaultHostName),
              name: site.name,
              region: site.location,
            });
      for await (const page of pages(
        api,
        at('Microsoft.Network/trafficmanagerprofiles'),
        LISTS.trafficmanagerprofiles,
        schemas.trafficmanagerprofiles,
        options,
      ))
        for (const profile of page.value) {
          const fqdn = profile.properties.dnsConfig?.fqdn;
          if (fqdn) snapshot.resources.push({ type: 'endpoint', host: hostOf(fqdn), name: profile.name });
        }
      for await (const page of pages(
        api,
        at('Microsoft.Storage/storageAccounts'),
        LISTS.storageAccounts,
        schemas.storageAccounts,
        options,
      ))
        for (const account of page.value) {
          const primary = account.properties.primaryEndpoints;
          const urls = [
            ...storageUrls(primary),
            ...storageUrls(primary?.internetEndpoints),
            ...storageUrls(primary?.microsoftEndpoints),
          ];
          for (const url of urls)
            if (url)
              snapshot.resources.push({
                type: 'bucket',
                host: hostOf(url),
                name: account.name,
                region: account.location,
              });
        }
      for await (const page of pages(
        api,
        at('Microsoft.Cdn/profiles'),
        LISTS.cdnProfiles,
        schemas.cdnProfiles,
        options,
      ))
        for (const profile of page.value) {
          // Front Door (Standard and Premium) lists its endpoints apart from classic CDN's.
          const frontDoor = /AzureFrontDoor/i.test(profile.sku?.name ?? '');
          const path = `${new URL(`${profile.id}`, api.management).pathname}/${frontDoor ? 'afdEndpoints' : 'endpoints'}`;
          for await (const endpoints of pages(api, path, LISTS.cdnProfiles, schemas.cdnEndpoints, options))
            for (const endpoint of endpoints.value)
              if (endpoint.properties.hostName)
                snapshot.resources.push({
                  type: 'distribution',
                  host: hostOf(endpoint.properties.hostName),
                  name: endpoint.name,
                });
        }
    }
    return snapshot;
  },
  /**
   * What the principal may do in each subscription (Microsoft.Authorization/permissions, readable
   * with Reader): every action that is not a read, such as Contributor's `*`. ARM answers this
   * subscription scope, though the published specification names only the resource-group and
   * resource scopes; a refusal leaves the rights unchecked rather than failing the read.
   */
  async unneededRights(credentials, snapshot, options) {
    const api = await token(credentials, options);
    const unneeded = new Set<string>();
    for (const subscription of snapshot.accounts) {
      const path = `/subscriptions/${encodeURIComponent(subscription)}/providers/Microsoft.Authorization/permissions`;
      for await (const page of pages(api, path, LISTS.permissions, schemas.permissions, options))
        for (const grant of page.value)
          for (const action of grant.actions) if (!/\/read$/i.test(action)) unneeded.add(action);
    }
    return [...unneeded].sort();
  },
};
