import { z } from 'zod';
import { cloudJson, sameOrigin } from '../cloud/http.ts';
import {
  type CloudCallOptions,
  type CloudProvider,
  type CloudSnapshot,
  cloudCredentialSchemas,
  endpointFrom,
} from '../cloud/provider.ts';

type Credentials = z.infer<typeof cloudCredentialSchemas.digitalocean>;

const DEFAULT_URL = 'https://api.digitalocean.com';
const PER_PAGE = 200;

const reason = (body: unknown) => {
  const parsed = z.object({ message: z.string(), id: z.string().optional() }).safeParse(body);
  return parsed.success
    ? `DigitalOcean: ${parsed.data.id ? `${parsed.data.id}: ` : ''}${parsed.data.message}`
    : undefined;
};
const links = z
  .object({ pages: z.object({ next: z.string().optional() }).loose().optional() })
  .loose()
  .optional();
const network = z.object({ ip_address: z.string(), type: z.string() }).loose();
const schemas = {
  account: z.object({
    account: z.object({ uuid: z.string(), team: z.object({ uuid: z.string() }).loose().optional() }).loose(),
  }),
  droplets: z.object({
    droplets: z.array(
      z
        .object({
          id: z.number(),
          name: z.string(),
          region: z.object({ slug: z.string() }).loose().optional(),
          networks: z.object({ v4: z.array(network).default([]), v6: z.array(network).default([]) }).loose(),
        })
        .loose(),
    ),
    links,
  }),
  reserved_ips: z.object({
    reserved_ips: z.array(
      z.object({ ip: z.string(), region: z.object({ slug: z.string() }).loose().optional() }).loose(),
    ),
    links,
  }),
  reserved_ipv6s: z.object({
    reserved_ipv6s: z.array(z.object({ ip: z.string(), region_slug: z.string().optional() }).loose()),
    links,
  }),
  load_balancers: z.object({
    load_balancers: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          ip: z.string().optional(),
          ipv6: z.string().optional(),
          region: z.object({ slug: z.string() }).loose().optional(),
        })
        .loose(),
    ),
    links,
  }),
  endpoints: z.object({
    endpoints: z.array(z.object({ id: z.string(), origin: z.string(), endpoint: z.string() }).loose()),
    links,
  }),
  apps: z.object({
    apps: z
      .array(
        z
          .object({
            id: z.string(),
            spec: z.object({ name: z.string() }).loose(),
            default_ingress: z.string().optional(),
          })
          .loose(),
      )
      .optional(),
    links,
  }),
};

/** Every page of a list, following `links.pages.next` on the API's own host. */
async function* pages<T extends { links?: { pages?: { next?: string } } }>(
  base: string,
  path: string,
  schema: z.ZodType<T>,
  token: string,
  options: CloudCallOptions | undefined,
): AsyncGenerator<T> {
  const first = new URL(`${base}${path}`);
  first.searchParams.set('per_page', String(PER_PAGE));
  first.searchParams.set('page', '1');
  let url: string | undefined = first.toString();
  while (url) {
    const page: T = await cloudJson({
      cloud: 'digitalocean',
      url,
      headers: { authorization: `Bearer ${token}` },
      schema,
      reason,
      options,
    });
    yield page;
    const next = page.links?.pages?.next;
    url = next ? sameOrigin('digitalocean', next, base) : undefined;
  }
}

/** A host name from a URL or a bare host. */
const hostOf = (value: string) =>
  value
    .replace(/^https?:\/\//, '')
    .replace(/[/:].*$/, '')
    .toLowerCase();

/**
 * DigitalOcean's v2 API with a read-only token: droplets' public addresses, reserved IPs, load
 * balancers, and the Spaces buckets behind CDN endpoints and the apps' default hosts (Spaces
 * themselves answer only to Spaces keys, which a token is not).
 */
export const digitalocean: CloudProvider<Credentials> = {
  id: 'digitalocean',
  credentials: cloudCredentialSchemas.digitalocean,
  async check(credentials, options) {
    const base = endpointFrom(options, 'DIGITALOCEAN_API_URL') ?? DEFAULT_URL;
    await cloudJson({
      cloud: 'digitalocean',
      url: `${base}/v2/account`,
      headers: { authorization: `Bearer ${credentials.token}` },
      schema: schemas.account,
      reason,
      options,
    });
  },
  async read(credentials, options) {
    const base = endpointFrom(options, 'DIGITALOCEAN_API_URL') ?? DEFAULT_URL;
    const token = credentials.token;
    const account = await cloudJson({
      cloud: 'digitalocean',
      url: `${base}/v2/account`,
      headers: { authorization: `Bearer ${token}` },
      schema: schemas.account,
      reason,
      options,
    });
    const snapshot: CloudSnapshot = {
      accounts: [account.account.team?.uuid ?? account.account.uuid],
      addresses: [],
      resources: [],
    };
    // The list holds no GPU Droplets unless asked for them alone (`type=gpus`).
    for (const list of ['/v2/droplets', '/v2/droplets?type=gpus'])
      for await (const page of pages(base, list, schemas.droplets, token, options))
        for (const d of page.droplets)
          for (const n of [...d.networks.v4, ...d.networks.v6])
            if (n.type === 'public')
              snapshot.addresses.push({
                address: n.ip_address,
                type: 'droplet',
                name: d.name,
                region: d.region?.slug,
              });
    for await (const page of pages(base, '/v2/reserved_ips', schemas.reserved_ips, token, options))
      for (const ip of page.reserved_ips)
        snapshot.addresses.push({
          address: ip.ip,
          type: 'reserved-ip',
          name: ip.ip,
          region: ip.region?.slug,
        });
    // Reserved IPv6 blocks are listed apart from the IPv4 ones, under the same read scope.
    for await (const page of pages(base, '/v2/reserved_ipv6', schemas.reserved_ipv6s, token, options))
      for (const ip of page.reserved_ipv6s)
        snapshot.addresses.push({
          address: ip.ip,
          type: 'reserved-ipv6',
          name: ip.ip,
          region: ip.region_slug,
        });
    for await (const page of pages(base, '/v2/load_balancers', schemas.load_balancers, token, options))
      for (const lb of page.load_balancers)
        for (const address of [lb.ip, lb.ipv6])
          if (address)
            snapshot.addresses.push({
              address,
              type: 'load-balancer',
              name: lb.name,
              region: lb.region?.slug,
            });
    for await (const page of pages(base, '/v2/cdn/endpoints', schemas.endpoints, token, options))
      for (const e of page.endpoints) {
        const bucket = hostOf(e.origin).split('.')[0] ?? e.origin;
        snapshot.resources.push({ type: 'bucket', host: hostOf(e.origin), name: bucket });
        snapshot.resources.push({ type: 'endpoint', host: hostOf(e.endpoint), name: bucket });
      }
    for await (const page of pages(base, '/v2/apps', schemas.apps, token, options))
      for (const app of page.apps ?? [])
        if (app.default_ingress)
          snapshot.resources.push({ type: 'site', host: hostOf(app.default_ingress), name: app.spec.name });
    return snapshot;
  },
};
