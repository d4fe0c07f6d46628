import { z } from 'zod';
import { callJson } from '../dns/http.ts';
import { baseUrl, type credentialSchemas, type ProviderCallOptions, ProviderError } from '../dns/provider.ts';

const DEFAULT_URL = 'https://api.digitalocean.com';
/** The API's maximum; its default is 20. */
const MAX_PER_PAGE = 200;

const links = z
  .object({ pages: z.object({ next: z.string().optional() }).loose().optional() })
  .loose()
  .optional();
const domainsPage = z.object({ domains: z.array(z.object({ name: z.string().min(1) }).loose()), links });
const recordsPage = z.object({
  domain_records: z.array(
    z
      .object({
        type: z.string().min(1),
        name: z.string(),
        data: z.string(),
        ttl: z.number().int().nonnegative(),
        priority: z.number().int().nullish(),
        port: z.number().int().nullish(),
        weight: z.number().int().nullish(),
        flags: z.number().int().nullish(),
        tag: z.string().nullish(),
      })
      .loose(),
  ),
  links,
});

const reason = (body: unknown) => {
  const parsed = z.object({ message: z.string() }).safeParse(body);
  return parsed.success ? `DigitalOcean: ${parsed.data.message}` : undefined;
};

export type Credentials = z.infer<typeof credentialSchemas.digitalocean>;

/**
 * Every page of a listing, following `links.pages.next`. Only its path and query are taken, on
 * our base URL: the API names its public host there, which must neither lead us elsewhere nor
 * bypass a base URL set for a private deployment.
 */
async function* pages<T extends { links?: { pages?: { next?: string } } }>(
  base: string,
  path: string,
  schema: z.ZodType<T>,
  credentials: Credentials,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<T> {
  let url: string | undefined = `${base}${path}`;
  while (url) {
    const body: T = await callJson({
      provider: 'digitalocean',
      url,
      headers: { authorization: `Bearer ${credentials.token}` },
      schema,
      reason,
      options,
    });
    yield body;
    const next = body.links?.pages?.next;
    if (next === undefined) return;
    const { pathname, search }: URL = new URL(next, url);
    const following: string = `${base}${pathname}${search}`;
    if (following === url)
      throw new ProviderError(
        'digitalocean',
        'malformed',
        'DigitalOcean API sent the same page as the next one',
      );
    url = following;
  }
}

/** DigitalOcean assigns every domain the same three name servers. */
export const DIGITALOCEAN_NAME_SERVERS = [
  'ns1.digitalocean.com',
  'ns2.digitalocean.com',
  'ns3.digitalocean.com',
];

/** One record as DigitalOcean gives it: owner relative to the domain, data in its own fields. */
export type DigitalOceanRecord = z.infer<typeof recordsPage>['domain_records'][number];

/** The domains the token can read, as DigitalOcean names them. */
export async function listDomains(
  credentials: Credentials,
  options?: ProviderCallOptions,
): Promise<string[]> {
  const base = baseUrl(options, 'DIGITALOCEAN_API_URL', DEFAULT_URL);
  const names: string[] = [];
  for await (const body of pages(
    base,
    `/v2/domains?per_page=${MAX_PER_PAGE}`,
    domainsPage,
    credentials,
    options,
  ))
    for (const domain of body.domains) names.push(domain.name);
  return names;
}

/** Every record of a domain, page after page. */
export async function* domainRecords(
  credentials: Credentials,
  domain: string,
  options?: ProviderCallOptions,
): AsyncGenerator<DigitalOceanRecord> {
  const base = baseUrl(options, 'DIGITALOCEAN_API_URL', DEFAULT_URL);
  const perPage = Math.min(options?.pageSize ?? MAX_PER_PAGE, MAX_PER_PAGE);
  const path = `/v2/domains/${encodeURIComponent(domain)}/records?per_page=${perPage}`;
  for await (const body of pages(base, path, recordsPage, credentials, options)) yield* body.domain_records;
}
