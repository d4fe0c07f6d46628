import { z } from 'zod';
import { type Entry, entrySchema } from './schema.ts';

/*
 * The fingerprint catalogue: every service the public takeover references list, with its
 * fingerprint, its status and the sources that say so, each with the date of what it says.
 *
 * Status: `vulnerable` where a source lists the service as claimable and no newer dated evidence
 * says otherwise; `edge` only where a source says so (or newer dated evidence contradicts an older
 * "vulnerable"); `not-vulnerable` where a source says the service verifies ownership, with the
 * reason. Where two sources disagree, the newer one decides, and the reason says which.
 *
 * Sources, as read on REVIEWED: can-i-take-over-xyz (README table and fingerprints.json, and the
 * issue threads they link), can-i-take-over-dns (DNS providers), nuclei-templates
 * (http/takeovers/, dns/), dnsReaper (signatures/) and subjack (fingerprints.json and its dangling
 * NS check).
 */

const REVIEWED = '2026-11-22';
const CIITO = 'https://github.com/EdOverflow/can-i-take-over-xyz';
/** The README table and fingerprints.json at 5bd4e12 ("refresh README + fingerprints.json"). */
const CIITO_AT = '2025-02-08';
const CITOD = 'https://github.com/indianajson/can-i-take-over-dns';
/** The README's provider table at 079e72d. */
const CITOD_AT = '2025-03-03';
const NUCLEI = 'https://github.com/projectdiscovery/nuclei-templates/tree/main';
const REAPER = 'https://github.com/punk-security/dnsReaper/tree/main/signatures';
const SUBJACK = 'https://github.com/haccer/subjack/blob/master/subjack';
/** fingerprints.json and nstakeover.go at b53899c. */
const SUBJACK_AT = '2026-03-16';

type Source = Entry['sources'][number];

/** can-i-take-over-xyz: its table, or one of the threads it links for the service. */
const ciito = (thread?: string): Source => ({ url: thread ? `${CIITO}/${thread}` : CIITO, date: CIITO_AT });
/** can-i-take-over-dns: the provider's row and its issue thread. */
const citod = (issue: number): Source => ({ url: `${CITOD}/issues/${issue}`, date: CITOD_AT });
/** A nuclei template; they carry no date of their own, so the date is the day it was read. */
const nuclei = (file: string): Source => ({
  url: `${NUCLEI}/${file.includes('/') ? file : `http/takeovers/${file}`}`,
  date: REVIEWED,
});
/** A dnsReaper signature, dated by its last commit. */
const reaper = (file: string, date: string): Source => ({ url: `${REAPER}/${file}`, date });
const subjack = (file = 'fingerprints.json'): Source => ({ url: `${SUBJACK}/${file}`, date: SUBJACK_AT });
/** A BadDNS signature, dated by the commit read (373abc9, 2026-03-22). */
const BADDNS_SIGNATURES =
  'https://github.com/blacklanternsecurity/baddns/blob/373abc9ba357289a5bf6784a88d27accbd21689d/baddns/signatures';
const baddns = (file: string): Source => ({ url: `${BADDNS_SIGNATURES}/${file}`, date: '2026-03-22' });
/** A thread (issue, pull request, comment) dated by the post that the reason relies on. */
const at = (url: string, date: string): Source => ({ url, date });
const NUCLEI_ISSUES = 'https://github.com/projectdiscovery/nuclei-templates';

/** Where an entry's source URL starts when it cites a reference's list (checked against the snapshots). */
export const REFERENCES = { ciito: CIITO, citod: CITOD, nuclei: NUCLEI, reaper: REAPER } as const;

/** A reference the catalogue was built from: what `danglewatch fingerprints` and the reports name. */
export interface CatalogueSource {
  name: string;
  url: string;
  /** The date of what was read: the commit's, or the day read where the source carries none. */
  date: string;
}

/** The references this bundled catalogue was read from, each dated by the snapshot read. */
export const CATALOGUE_SOURCES: readonly CatalogueSource[] = [
  { name: 'can-i-take-over-xyz', url: `${CIITO}/tree/5bd4e12`, date: CIITO_AT },
  { name: 'can-i-take-over-dns', url: `${CITOD}/tree/079e72d`, date: CITOD_AT },
  {
    name: 'dnsReaper',
    url: 'https://github.com/punk-security/dnsReaper/tree/c1588b2/signatures',
    date: '2025-10-04',
  },
  { name: 'BadDNS', url: BADDNS_SIGNATURES, date: '2026-03-22' },
  { name: 'nuclei-templates', url: `${NUCLEI}/http/takeovers`, date: '2026-11-27' },
  { name: 'subjack', url: SUBJACK, date: SUBJACK_AT },
];

type Status = Entry['status'];

export interface Common {
  id: string;
  service: string;
  status: Status;
  reason: string;
  resource: string;
  /** How someone else would claim it, completing "anyone can take it over by …". */
  claim: string;
  /** The claim needs a paid plan or a purchase: never `claimable`, even when vulnerable. */
  paid?: boolean;
  sources: Source[];
  /** CNAME targets under the entry's patterns it never applies to (a reference's `not_cnames`). */
  notCname?: string[];
  /** What the service checks about the custom domain before it serves it (see the schema). */
  verifiesDomain?: string;
}

const CLAIM_NOTE: Record<Status, string> = {
  vulnerable: 'Anyone can take it over by',
  edge: 'Someone may be able to take it over by',
  'not-vulnerable':
    'The service now checks domain ownership, so a takeover is unlikely, but the record is stale:',
  retired: 'It points at a retired service: remove the record. Nobody can take it over by',
};

/** A harmless proof: something only the claimant could publish, seen through the scanned name. */
const TOKEN_PROOF = {
  page: 'serve a page holding a random token and fetch it through this name',
  zone: 'publish a TXT record holding a random token and query it under this name',
};

function texts(c: Common, what: string, lead = `This name points at ${c.service}`, proof = TOKEN_PROOF.page) {
  return {
    explanation: `${lead}, but ${what}. ${CLAIM_NOTE[c.status]} ${c.claim}.`,
    proofOfConcept:
      c.status === 'retired'
        ? `No takeover path is left: ${c.service} no longer creates these names; re-check the record with dig.`
        : c.status === 'not-vulnerable'
          ? `No takeover path is known while ${c.service} verifies ownership; re-check the record with dig.`
          : `Claim it by ${c.claim}; ${proof}, then release the ${c.resource}.`,
    remediation:
      c.status === 'retired'
        ? `Delete the DNS record: ${c.service} no longer offers the ${c.resource} it pointed at.`
        : `Delete the DNS record, or recreate the ${c.resource} on ${c.service} under your own account and keep it.`,
  };
}

export function web(
  c: Common & {
    cname: string[];
    ips?: string[];
    body?: string[];
    /** Variants of the page (sources or versions differ); one of them must appear. */
    anyBody?: string[];
    /** The reference's unclaimed page in words any 404 could say: counted on the service's own suffix only. */
    generic?: string[];
    httpStatus?: number[];
    headers?: { name: string; contains: string }[];
    negative?: { body?: string[]; headers?: string[] };
  },
) {
  return {
    id: c.id,
    service: c.service,
    cname: c.cname,
    notCname: c.notCname ?? [],
    ips: c.ips ?? [],
    dns: 'resolves' as const,
    http: {
      status: c.httpStatus,
      body: c.body ?? [],
      anyBody: c.anyBody ?? [],
      headers: c.headers ?? [],
      generic: c.generic ?? [],
    },
    negative: { body: c.negative?.body ?? [], headers: c.negative?.headers ?? [] },
    status: c.status,
    verifiesDomain: c.verifiesDomain,
    reviewed: REVIEWED,
    reason: c.reason,
    resource: c.resource,
    paid: c.paid ?? false,
    sources: c.sources,
    ...texts(c, `${c.service} answers that no ${c.resource} is configured for it`),
  };
}

export function gone(c: Common & { cname?: string[]; mx?: string[] }) {
  return {
    id: c.id,
    service: c.service,
    cname: c.cname ?? [],
    notCname: c.notCname ?? [],
    mx: c.mx ?? [],
    dns: 'nxdomain' as const,
    negative: { body: [], headers: [] },
    status: c.status,
    reviewed: REVIEWED,
    reason: c.reason,
    resource: c.resource,
    paid: c.paid ?? false,
    sources: c.sources,
    ...texts(c, `the ${c.resource} name it points to no longer exists there`),
  };
}

export function zone(c: Common & { ns: string[] }) {
  return {
    id: c.id,
    service: c.service,
    ns: c.ns,
    dns: 'zone-missing' as const,
    negative: { body: [], headers: [] },
    status: c.status,
    reviewed: REVIEWED,
    reason: c.reason,
    resource: c.resource,
    paid: c.paid ?? false,
    sources: c.sources,
    ...texts(
      c,
      `those nameservers no longer hold its zone`,
      `This name is delegated to the nameservers of ${c.service}`,
      TOKEN_PROOF.zone,
    ),
  };
}

/** The Azure suffixes each source lists as NXDOMAIN takeovers: an entry cites those that list it. */
const AZURE_LISTS: Array<[Source, string[]]> = [
  [
    ciito('issues/35'),
    [
      'cloudapp.net',
      'cloudapp.azure.com',
      'azurewebsites.net',
      'blob.core.windows.net',
      'azure-api.net',
      'azurehdinsight.net',
      'azureedge.net',
      'azurecontainer.io',
      'database.windows.net',
      'azuredatalakestore.net',
      'search.windows.net',
      'azurecr.io',
      'redis.cache.windows.net',
      'servicebus.windows.net',
      'visualstudio.com',
    ],
  ],
  [
    reaper('microsoft_azure.py', '2022-07-28'),
    [
      'cloudapp.net',
      'cloudapp.azure.com',
      'azurewebsites.net',
      'blob.core.windows.net',
      'azure-api.net',
      'azurehdinsight.net',
      'azureedge.net',
      'azurecontainer.io',
      'database.windows.net',
      'azuredatalakestore.net',
      'search.windows.net',
      'azurecr.io',
      'redis.cache.windows.net',
      'servicebus.windows.net',
      'trafficmanager.net',
    ],
  ],
  [
    nuclei('dns/azure-takeover-detection.yaml'),
    [
      'azure-api.net',
      'azure-mobile.net',
      'azurecontainer.io',
      'azurecr.io',
      'azuredatalakestore.net',
      'azureedge.net',
      'azurefd.net',
      'azurehdinsight.net',
      'azurewebsites.net',
      'azurewebsites.windows.net',
      'blob.core.windows.net',
      'cloudapp.azure.com',
      'database.windows.net',
      'redis.cache.windows.net',
      'search.windows.net',
      'servicebus.windows.net',
      'trafficmanager.net',
      'visualstudio.com',
      'web.core.windows.net',
    ],
  ],
  [
    subjack(),
    [
      'trafficmanager.net',
      'azurewebsites.net',
      'blob.core.windows.net',
      'azureedge.net',
      'cloudapp.net',
      'cloudapp.azure.com',
      'azure-api.net',
      'azurehdinsight.net',
    ],
  ],
  [subjack('azure.go'), ['cloudapp.net', 'trafficmanager.net']],
  [nuclei('dns/azure-trafficmanager-takeover-detection.yaml'), ['trafficmanager.net']],
];

/**
 * BadDNS's Azure signature dropped these suffixes as retired or mitigated (pull request 712,
 * merged 2026-02-27, in the snapshot of 2026-03-22): the newest dated source for each.
 */
const BADDNS_AZURE_RETIRED = at('https://github.com/blacklanternsecurity/baddns/pull/712', '2026-02-27');

/** What a newer source says of an Azure suffix the older lists call vulnerable. */
interface Newer {
  status: 'edge' | 'retired' | 'not-vulnerable';
  reason: string;
  source?: Source;
}

/** An Azure resource type; `newer` when a newer source says claims no longer work as a rule. */
const azure = (id: string, service: string, suffix: string, resource: string, newer?: Newer) =>
  gone({
    id,
    service,
    cname: [suffix],
    status: newer?.status ?? 'vulnerable',
    reason:
      newer?.reason ??
      'Azure resource names are global and freed on deletion; Azure does not verify the custom domain',
    resource,
    claim: `creating a ${resource} with the same name in any Azure subscription`,
    sources: [
      ...AZURE_LISTS.filter(([, suffixes]) => suffixes.includes(suffix)).map(([source]) => source),
      ...(newer?.source ? [newer.source] : []),
    ],
  });

const BEANSTALK_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-east-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  // In dnsReaper's list and BadDNS's copy of it (dnsreaper_elastic_beanstalk.yml), 2026-03-22.
  'ap-southeast-3',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'me-south-1',
  'il-central-1',
  'sa-east-1',
];

/** DNS hosts that can-i-take-over-dns lists as not vulnerable: id, name, nameservers, its issue. */
const VERIFYING_DNS_HOSTS: Array<[string, string, string[], number]> = [
  ['easydns', 'EasyDNS', ['easydns.com', 'easydns.net', 'easydns.org', 'easydns.info'], 9],
  ['mydomain', 'MyDomain', ['ns1.mydomain.com', 'ns2.mydomain.com'], 4],
  ['cloudflare-dns', 'Cloudflare DNS', ['ns.cloudflare.com'], 10],
  ['hover', 'Hover', ['ns1.hover.com', 'ns2.hover.com'], 21],
  ['network-solutions', 'Network Solutions', ['worldnic.com'], 15],
  ['ultradns', 'UltraDNS', ['ultradns.com', 'ultradns.net', 'ultradns.org'], 29],
  [
    'bigcommerce-dns',
    'BigCommerce DNS',
    ['ns1.bigcommerce.com', 'ns2.bigcommerce.com', 'ns3.bigcommerce.com'],
    35,
  ],
  ['domainpeople', 'DomainPeople', ['ns1.domainpeople.com', 'ns2.domainpeople.com'], 14],
];

/** DNS hosts that can-i-take-over-dns lists as not vulnerable without an issue of their own. */
const VERIFYING_DNS_HOSTS_UNLINKED: Array<[string, string, string[]]> = [
  ['cloudns', 'ClouDNS', ['cloudns.net']],
  ['gandi-dns', 'Gandi.net', ['dns.gandi.net']],
  ['namecheap-dns', 'Namecheap', ['registrar-servers.com', 'namecheaphosting.com']],
];

/**
 * Nameservers that never leave a zone up for grabs: Akamai Edge DNS serves zones that Akamai
 * provisions for contract customers only, and parking services answer for every domain pointed at
 * them, so a zone there is never missing. An NS record into them is never a takeover finding.
 */
const CLOSED_NAMESERVERS: Array<[string, string, string[], string, string]> = [
  [
    'akamai-edge-dns',
    'Akamai Edge DNS',
    ['akam.net'],
    'zones exist only when Akamai provisions them for a contract customer; nobody can add one to a free account',
    'https://techdocs.akamai.com/edge-dns/docs/welcome-edge-dns',
  ],
  [
    'sedo-parking',
    'Sedo parking',
    ['sedoparking.com'],
    'a parking service: its nameservers answer for every domain pointed at them, so no zone is ever missing there',
    'https://sedo.com/us/parking/',
  ],
  [
    'parkingcrew',
    'ParkingCrew',
    ['parkingcrew.net'],
    'a parking service: its nameservers answer for every domain pointed at them, so no zone is ever missing there',
    'https://www.parkingcrew.com/',
  ],
  [
    'bodis-parking',
    'Bodis parking',
    ['bodis.com'],
    'a parking service: its nameservers answer for every domain pointed at them, so no zone is ever missing there',
    'https://www.bodis.com/',
  ],
];

const raw = [
  web({
    id: 'aws-s3',
    service: 'AWS S3',
    cname: [
      's3.amazonaws.com',
      's3.*.amazonaws.com',
      's3-website-*.amazonaws.com',
      's3-website.*.amazonaws.com',
    ],
    body: ['NoSuchBucket', 'The specified bucket does not exist'],
    httpStatus: [404],
    negative: { headers: ['x-guploader-uploadid'] },
    status: 'vulnerable',
    reason: 'bucket names are global; a deleted bucket name can be created by anyone in any account',
    resource: 'bucket',
    claim: 'creating an S3 bucket named exactly like this host name, in the region of the record',
    sources: [ciito('issues/36'), nuclei('aws-bucket-takeover.yaml')],
  }),
  web({
    id: 'github-pages',
    service: 'GitHub Pages',
    cname: ['github.io'],
    ips: [
      '185.199.108.153',
      '185.199.109.153',
      '185.199.110.153',
      '185.199.111.153',
      '2606:50c0:8000::153',
      '2606:50c0:8001::153',
      '2606:50c0:8002::153',
      '2606:50c0:8003::153',
    ],
    httpStatus: [404],
    status: 'edge',
    reason: 'claimable unless the owner verified the domain in their GitHub organisation settings',
    resource: 'Pages site',
    claim: 'adding this host name as the custom domain of a repository they own',
    sources: [ciito('issues/37'), nuclei('github-takeover.yaml'), reaper('github_pages.py', '2024-03-10')],
    anyBody: [
      "There isn't a GitHub Pages site here.",
      '<title>Site not found ',
      'For root URLs (like http://example.com/) you must provide an index.html file',
    ],
  }),
  web({
    id: 'heroku',
    service: 'Heroku',
    cname: ['herokuapp.com', 'herokudns.com', 'herokussl.com'],
    body: ['herokucdn.com/error-pages/no-such-app.html'],
    httpStatus: [404],
    status: 'edge',
    reason: 'herokudns.com targets are random per domain; only legacy herokuapp.com CNAMEs can be re-created',
    resource: 'app',
    claim: 'creating a Heroku app with the name in the record and adding this host name to it',
    sources: [ciito('issues/38'), nuclei('heroku-takeover.yaml'), subjack()],
  }),
  web({
    id: 'netlify',
    service: 'Netlify',
    cname: ['netlify.app', 'netlify.com'],
    body: ['Not Found - Request ID:'],
    httpStatus: [404],
    status: 'edge',
    verifiesDomain:
      'Netlify asks for a TXT record under a domain another account used before it serves it (nuclei pull request 12569, 2025-07; BadDNS pull request 609, 2025-08)',
    reason:
      'can-i-take-over-xyz lists Netlify as an edge case; nuclei (2025-07) agrees, as Netlify asks for DNS verification of a domain in use',
    resource: 'site',
    claim: 'adding this host name as a custom domain to a Netlify site',
    sources: [
      ciito('issues/40'),
      at(`${CIITO}/issues/40`, '2022-11-28'),
      at(`${NUCLEI_ISSUES}/pull/12569`, '2025-07-14'),
      at('https://github.com/blacklanternsecurity/baddns/pull/609', '2025-08-07'),
      reaper('netlify.py', '2022-07-25'),
      nuclei('netlify-takeover.yaml'),
    ],
  }),
  web({
    id: 'vercel',
    service: 'Vercel',
    cname: ['vercel.app', 'vercel-dns.com', 'now.sh'],
    body: ['The deployment could not be found on Vercel'],
    httpStatus: [404],
    status: 'edge',
    verifiesDomain:
      'Vercel serves a custom domain that another account used only once a TXT record at _vercel under it proves ownership',
    resource: 'deployment',
    claim: 'adding this host name to a Vercel project, where Vercel does not ask for a verification record',
    sources: [
      ciito('issues/183'),
      at(`${CIITO}/pull/375`, '2023-07-17'),
      at(`${NUCLEI_ISSUES}/issues/9596`, '2024-05-09'),
      at(`${NUCLEI_ISSUES}/issues/10076`, '2024-06-19'),
      nuclei('vercel-takeover.yaml'),
    ],
    reason:
      'can-i-take-over-xyz lists Vercel as an edge case: PR 375 (2023) shows claims fail once the domain or a sibling is verified; nuclei closed a 2024 report of TXT verification as edge case',
  }),
  web({
    id: 'fly-io',
    service: 'Fly.io',
    cname: ['fly.dev'],
    body: ['404 Not Found'],
    httpStatus: [404],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-xyz lists Fly.io as not vulnerable: certificates need proof of control of the name',
    resource: 'app',
    claim: 'remove the record or attach the name to a live Fly.io app',
    sources: [ciito('issues/101'), at(`${CIITO}/pull/102`, '2020-02-03')],
  }),
  gone({
    id: 'railway',
    service: 'Railway',
    cname: ['up.railway.app'],
    status: 'not-vulnerable',
    reason: 'Railway custom domains are tied to the project that created them and need a verification record',
    resource: 'service',
    claim: 'remove the record or attach the domain to a live Railway service',
    sources: [{ url: 'https://docs.railway.com/guides/public-networking', date: REVIEWED }],
  }),
  gone({
    id: 'render',
    service: 'Render',
    cname: ['onrender.com'],
    status: 'not-vulnerable',
    reason: 'Render verifies custom domains before serving them',
    resource: 'service',
    claim: 'remove the record or attach the domain to a live Render service',
    sources: [{ url: 'https://render.com/docs/custom-domains', date: REVIEWED }],
  }),
  gone({
    id: 'supabase',
    service: 'Supabase',
    cname: ['supabase.co'],
    status: 'not-vulnerable',
    reason: 'Supabase custom domains require TXT verification and project refs are random',
    resource: 'project',
    claim: 'remove the record or point it at a live Supabase project',
    sources: [{ url: 'https://supabase.com/docs/guides/platform/custom-domains', date: REVIEWED }],
  }),
  azure('azure-app-service', 'Azure App Service', 'azurewebsites.net', 'web app'),
  azure('azure-cloud-services', 'Azure Cloud Services', 'cloudapp.net', 'cloud service', {
    status: 'retired',
    reason:
      'Cloud Services (classic) was retired in August 2024 and no new extended-support service can be created: BadDNS dropped cloudapp.net (pull request 712, 2026-02-27), can-i-take-over-xyz issue 465 (2025-11-19) calls it not vulnerable',
    source: BADDNS_AZURE_RETIRED,
  }),
  azure('azure-vm-dns', 'Azure virtual machine DNS label', 'cloudapp.azure.com', 'public IP DNS label'),
  azure('azure-traffic-manager', 'Azure Traffic Manager', 'trafficmanager.net', 'Traffic Manager profile'),
  azure('azure-blob', 'Azure Blob Storage', 'blob.core.windows.net', 'storage account'),
  azure('azure-cdn', 'Azure CDN', 'azureedge.net', 'CDN endpoint', {
    status: 'retired',
    reason:
      'classic Azure CDN is retired and new profiles can no longer be created: BadDNS dropped azureedge.net (pull request 712, 2026-02-27), newer than the 2025 report of a claim in can-i-take-over-xyz issue 432',
    source: BADDNS_AZURE_RETIRED,
  }),
  azure('azure-api-management', 'Azure API Management', 'azure-api.net', 'API Management service'),
  azure('azure-hdinsight', 'Azure HDInsight', 'azurehdinsight.net', 'HDInsight cluster'),
  azure('azure-container-instances', 'Azure Container Instances', 'azurecontainer.io', 'container group'),
  azure('azure-container-registry', 'Azure Container Registry', 'azurecr.io', 'container registry', {
    status: 'not-vulnerable',
    reason:
      'a deleted registry name is now held back for a cooling-off period for its owner: BadDNS dropped azurecr.io as mitigated (pull request 712, 2026-02-27)',
    source: BADDNS_AZURE_RETIRED,
  }),
  azure('azure-sql', 'Azure SQL Database', 'database.windows.net', 'SQL server'),
  azure('azure-redis', 'Azure Cache for Redis', 'redis.cache.windows.net', 'Redis cache'),
  azure('azure-service-bus', 'Azure Service Bus', 'servicebus.windows.net', 'Service Bus namespace'),
  azure('azure-search', 'Azure AI Search', 'search.windows.net', 'search service'),
  azure('azure-data-lake', 'Azure Data Lake Storage Gen1', 'azuredatalakestore.net', 'Data Lake store', {
    status: 'retired',
    reason:
      'Data Lake Storage Gen1 was retired in February 2024: BadDNS dropped azuredatalakestore.net (pull request 712, 2026-02-27)',
    source: BADDNS_AZURE_RETIRED,
  }),
  gone({
    id: 'aws-elastic-beanstalk',
    service: 'AWS Elastic Beanstalk',
    cname: BEANSTALK_REGIONS.map((region) => `${region}.elasticbeanstalk.com`),
    status: 'vulnerable',
    reason: 'region-qualified environment names are freed on deletion and can be registered by anyone',
    resource: 'environment',
    claim: 'creating an Elastic Beanstalk environment with this CNAME prefix in the same region',
    sources: [
      ciito('issues/194'),
      reaper('elastic_beanstalk.py', '2022-07-28'),
      nuclei('dns/elasticbeanstalk-takeover.yaml'),
      nuclei('dns/elasticbeantalk-takeover.yaml'),
      nuclei('dns/elasticbeantalk-takeover-detection.yaml'),
    ],
  }),
  gone({
    id: 'aws-elb',
    service: 'AWS Elastic Load Balancing',
    cname: ['elb.amazonaws.com'],
    status: 'not-vulnerable',
    reason: 'load balancer host names carry a random part that cannot be chosen',
    resource: 'load balancer',
    claim: 'remove the record',
    sources: [ciito('issues/137')],
  }),
  web({
    id: 'aws-cloudfront',
    service: 'Amazon CloudFront',
    cname: ['cloudfront.net'],
    body: ['ViewerCertificateException'],
    status: 'not-vulnerable',
    reason: 'CloudFront requires a valid certificate for the alternate domain name since 2019',
    resource: 'distribution',
    claim: 'remove the record or attach the name to a live distribution',
    sources: [ciito('issues/29')],
  }),
  web({
    id: 'agile-crm',
    service: 'Agile CRM',
    cname: ['agilecrm.com'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz; no ownership check on custom landing domains',
    resource: 'landing page',
    claim: 'adding this host name to an Agile CRM account',
    sources: [
      ciito('issues/145'),
      nuclei('agilecrm-takeover.yaml'),
      reaper('agilecrm.py', '2022-07-24'),
      subjack(),
    ],
    anyBody: ['Sorry, this page is no longer available.', 'No landing page found.'],
  }),
  web({
    id: 'anima',
    service: 'Anima',
    cname: ['animaapp.io'],
    // dnsReaper matches the address its custom domains point at, with the same page.
    ips: ['35.164.217.247'],
    status: 'vulnerable',
    reason:
      'listed vulnerable by can-i-take-over-xyz (issue 126); the page is the one its fingerprints.json, nuclei and dnsReaper give',
    resource: 'site',
    claim: 'adding this host name to an Anima project',
    sources: [ciito('issues/126'), nuclei('anima-takeover.yaml'), reaper('anima.py', '2022-12-23')],
    // The same text with a straight apostrophe (can-i-take-over-xyz, nuclei) or a curly one (dnsReaper).
    anyBody: [
      "If this is your website and you've just created it, try refreshing in a minute",
      'If this is your website and you\u2019ve just created it, try refreshing in a minute',
    ],
  }),
  web({
    id: 'bitbucket',
    service: 'Bitbucket Cloud',
    cname: ['bitbucket.io'],
    body: ['Repository not found'],
    status: 'vulnerable',
    reason: 'a workspace name freed by deletion can be registered again',
    resource: 'repository site',
    claim: 'creating the workspace and its <workspace>.bitbucket.io repository',
    sources: [ciito(), nuclei('bitbucket-takeover.yaml'), subjack(), ciito('issues/97')],
  }),
  web({
    id: 'campaign-monitor',
    service: 'Campaign Monitor',
    cname: ['createsend.com', 'campaignmonitor.com'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'account domain',
    claim: 'adding this host name as the custom domain of a Campaign Monitor account',
    sources: [
      ciito('issues/275'),
      nuclei('campaignmonitor-takeover.yaml'),
      reaper('campaign_monitor.py', '2022-08-01'),
      subjack(),
    ],
    anyBody: [
      'Trying to access your account?',
      "WHOOPS! The page you're looking for does not exist.",
      'Double check the URL or <a href="mailto:help@createsend.com',
    ],
  }),
  web({
    id: 'cargo-collective',
    service: 'Cargo Collective',
    cname: ['cargocollective.com', 'cargo.site'],
    status: 'vulnerable',
    reason:
      'can-i-take-over-xyz lists Cargo Collective as vulnerable (issue 152); the page text is generic, the CNAME is not',
    resource: 'site',
    claim: 'adding this host name to a Cargo site',
    sources: [
      ciito('issues/152'),
      nuclei('cargocollective-takeover.yaml'),
      reaper('cargo_collective.py', '2023-07-19'),
      nuclei('cargo-takeover.yaml'),
    ],
    // "404 Not Found": can-i-take-over-xyz, dnsReaper (cname.cargo.site) and nuclei's Cargo Collective
    // template ("404 Not Found<br>"); the newer Cargo page is nuclei's cargo-takeover. None gives a status.
    anyBody: [
      '404 Not Found',
      "If you're moving your domain away from Cargo you must make this configuration through your registrar's DNS control panel.",
    ],
  }),
  web({
    id: 'gemfury',
    service: 'Gemfury',
    cname: ['furyns.com'],
    body: ['404: This page could not be found.'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'account',
    claim: 'creating the Gemfury account named in the record',
    sources: [ciito('issues/154'), nuclei('gemfury-takeover.yaml')],
  }),
  web({
    id: 'ghost',
    service: 'Ghost(Pro)',
    cname: ['ghost.io'],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists Ghost as vulnerable (issue 89)',
    resource: 'publication',
    claim: 'creating the Ghost(Pro) publication named in the record and adding this host name',
    sources: [ciito('issues/89'), nuclei('ghost-takeover.yaml'), subjack()],
    anyBody: ['Site unavailable', 'Failed to resolve DNS path for this host'],
  }),
  web({
    id: 'hatena-blog',
    service: 'Hatena Blog',
    cname: ['hatenablog.com'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'blog',
    claim: 'creating a Hatena blog and setting this host name as its custom domain',
    sources: [ciito(), nuclei('hatenablog-takeover.yaml'), reaper('hatenablog.py', '2025-10-04'), subjack()],
    anyBody: ['404 Blog is not found', 'The request could not be satisfied.'],
  }),
  web({
    id: 'help-juice',
    service: 'Help Juice',
    cname: ['helpjuice.com'],
    body: ["We could not find what you're looking for."],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'knowledge base',
    claim: 'creating a Help Juice knowledge base with this custom domain',
    sources: [ciito(), nuclei('helpjuice-takeover.yaml'), subjack()],
  }),
  web({
    id: 'help-scout',
    service: 'Help Scout Docs',
    cname: ['helpscoutdocs.com'],
    body: ['No settings were found for this company:'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'docs site',
    claim: 'adding this host name as the custom domain of a Help Scout Docs site',
    sources: [ciito(), nuclei('helpscout-takeover.yaml'), subjack(), reaper('helpscout.py', '2025-10-04')],
  }),
  web({
    id: 'hubspot',
    service: 'HubSpot',
    cname: ['hs-sites.com', 'hubspot.net'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ["This page isn't available", 'does not exist in our system'],
    status: 'not-vulnerable',
    reason: 'HubSpot verifies domain ownership before connecting it',
    resource: 'site',
    claim: 'remove the record or reconnect the domain in HubSpot',
    sources: [ciito('issues/59'), nuclei('hubspot-takeover.yaml'), nuclei('hubspot-takeover-header.yaml')],
  }),
  web({
    id: 'intercom',
    service: 'Intercom Help Center',
    cname: ['custom.intercom.help'],
    status: 'edge',
    reason:
      'can-i-take-over-xyz moved Intercom to edge case: a claim works only while the help center allows the domain',
    resource: 'help center',
    claim: 'setting this host name as the custom domain of an Intercom help center',
    sources: [ciito('issues/69'), nuclei('intercom-takeover.yaml'), subjack()],
    anyBody: ["Uh oh. That page doesn't exist.", 'This page is reserved for artistic dogs.'],
  }),
  web({
    id: 'jetbrains-youtrack',
    service: 'JetBrains YouTrack InCloud',
    cname: ['youtrack.cloud', 'myjetbrains.com'],
    body: ['is not a registered InCloud YouTrack'],
    status: 'vulnerable',
    // dnsReaper's "YouTrack Starting Page" (cname.myjetbrains.com) is a page title and no other source
    // shows it on an unclaimed name: not taken as evidence.
    reason:
      'listed vulnerable by can-i-take-over-xyz (PR 107); the page text is the one its fingerprints.json and nuclei give',
    resource: 'YouTrack instance',
    claim: 'registering a YouTrack InCloud instance with this custom domain',
    sources: [
      ciito(),
      nuclei('jetbrains-takeover.yaml'),
      subjack(),
      ciito('pull/107'),
      reaper('jetbrains.py', '2022-07-24'),
    ],
  }),
  web({
    id: 'kinsta',
    service: 'Kinsta',
    cname: ['kinsta.cloud'],
    body: ['No Site For Domain'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Kinsta as not vulnerable: Kinsta verifies domains added to a site',
    resource: 'site',
    claim: 'remove the record or add the domain back to the Kinsta site',
    sources: [ciito('issues/48'), at(`${CIITO}/issues/48`, '2021-09-09'), nuclei('kinsta-takeover.yaml')],
  }),
  web({
    id: 'launchrock',
    service: 'LaunchRock',
    cname: ['launchrock.com'],
    body: ["It looks like you may have taken a wrong turn somewhere. Don't worry...it happens to all of us."],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'page',
    claim: 'adding this host name to a LaunchRock page',
    sources: [
      ciito('issues/74'),
      nuclei('launchrock-takeover.yaml'),
      reaper('launchrock_cname.py', '2024-09-10'),
    ],
  }),
  web({
    id: 'ngrok',
    service: 'ngrok',
    cname: ['ngrok.io', 'ngrok.app'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'tunnel domain',
    claim: 'reserving this host name on an ngrok account and starting a tunnel',
    sources: [ciito('issues/92'), nuclei('ngrok-takeover.yaml'), reaper('ngrok.py', '2022-07-24'), subjack()],
    anyBody: ['ERR_NGROK_3200', '.ngrok.io not found'],
  }),
  web({
    id: 'pantheon',
    service: 'Pantheon',
    cname: ['pantheonsite.io'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ['404 error unknown site!', 'The gods are wise, but do not know of the site which you seek.'],
    status: 'edge',
    reason:
      'the table says vulnerable, but issue 467 (2025-12-09) reports Pantheon now asks for domain verification (its docs); earlier threads show takeovers working on and off',
    resource: 'site',
    claim: 'adding this host name to a Pantheon site',
    sources: [
      ciito('issues/24'),
      at(`${CIITO}/issues/467`, '2025-12-09'),
      nuclei('pantheon-takeover.yaml'),
      subjack(),
    ],
  }),
  web({
    id: 'pingdom',
    service: 'Pingdom public status page',
    cname: ['stats.pingdom.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      "Sorry, couldn't find the status page",
      'Public Report Not Activated',
      'This public report page has not been activated by the user',
    ],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'status page',
    claim: 'setting this host name as the custom domain of a Pingdom status page',
    sources: [ciito('issues/144'), nuclei('pingdom-takeover.yaml')],
  }),
  web({
    id: 'readme-io',
    service: 'ReadMe',
    cname: ['readme.io', 'readmessl.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      'The creators of this project are still working on making everything perfect!',
      'Project doesnt exist... yet!',
    ],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'project',
    claim: 'creating a ReadMe project and setting this host name as its custom domain',
    sources: [ciito('issues/41'), nuclei('readme-takeover.yaml'), subjack()],
  }),
  web({
    id: 'readthedocs',
    service: 'Read the Docs',
    cname: ['readthedocs.io'],
    anyBody: ['is unknown to Read the Docs'],
    // The references' sentence any 404 could say: counted on the service's own suffixes only.
    generic: ['The link you have followed or the URL that you entered does not exist.'],
    status: 'edge',
    reason:
      'the table says vulnerable (issue 160), but a 2025-12-02 comment there finds the project name still taken after the docs are gone',
    resource: 'project',
    claim: 'adding this host name as a domain of a Read the Docs project',
    sources: [
      ciito('issues/160'),
      at(`${CIITO}/issues/160`, '2025-12-02'),
      nuclei('readthedocs-takeover.yaml'),
      subjack(),
    ],
  }),
  web({
    id: 'shopify',
    service: 'Shopify',
    cname: ['myshopify.com'],
    ips: ['23.227.38.65'],
    status: 'edge',
    reason: 'Shopify now checks the DNS points at Shopify, which it does; claims work only in some cases',
    resource: 'shop',
    claim: 'adding this host name to a Shopify store',
    sources: [
      ciito('issues/32'),
      reaper('shopify.py', '2025-10-04'),
      subjack(),
      nuclei('shopify-takeover.yaml'),
    ],
    anyBody: [
      'Sorry, this shop is currently unavailable.',
      'Cloudflare is currently unable to resolve your requested domain',
      'Sorry, this store is currently unavailable.',
      'To finish setting up your new web address, go to your domain settings, click "Connect existing domain"',
    ],
  }),
  web({
    id: 'short-io',
    service: 'Short.io',
    cname: ['short.io'],
    status: 'edge',
    reason:
      'the table still says vulnerable, but Short.io wrote in issue 260 (2022-12-30) that a domain connected elsewhere cannot be added and a configured one cannot be removed; only a record pointed at Short.io and never added remains',
    resource: 'branded domain',
    claim: 'adding this host name as a branded domain on Short.io',
    sources: [
      ciito('issues/260'),
      at(`${CIITO}/issues/260`, '2022-12-30'),
      nuclei('short-io.yaml'),
      reaper('short.py', '2022-08-15'),
    ],
    anyBody: ['Link does not exist', 'This domain is not configured on Short.io.'],
  }),
  web({
    id: 'smartjobboard',
    service: 'SmartJobBoard',
    cname: ['mysmartjobboard.com', 'cname.smartjobboard.com'],
    // The address can-i-take-over-xyz's table gives for the service's custom domains.
    ips: ['52.16.160.97'],
    status: 'vulnerable',
    // dnsReaper's "404 Not Found" for cname.smartjobboard.com is generic: the service's own page is required.
    reason:
      'listed vulnerable by can-i-take-over-xyz (issue 139); the page is the one its fingerprints.json, nuclei and dnsReaper (mysmartjobboard.com) give',
    resource: 'job board',
    claim: 'connecting this host name to a SmartJobBoard site',
    sources: [
      ciito('issues/139'),
      reaper('mysmartjobboard.py', '2022-07-24'),
      reaper('smartjobboard.py', '2024-03-10'),
      nuclei('smartjob-takeover.yaml'),
    ],
    anyBody: [
      'This job board website is either expired or its domain name is invalid.',
      'Job Board Is Unavailable',
    ],
  }),
  web({
    id: 'strikingly',
    service: 'Strikingly',
    cname: ['s.strikinglydns.com', 'strikinglydns.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ['PAGE NOT FOUND', "But if you're looking to build your own website"],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists Strikingly as vulnerable (issue 58)',
    resource: 'site',
    claim: 'connecting this host name to a Strikingly site',
    sources: [ciito('issues/58'), subjack(), nuclei('strikingly-takeover.yaml')],
  }),
  web({
    id: 'surge',
    service: 'Surge.sh',
    cname: ['surge.sh'],
    body: ['project not found'],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'project',
    claim: 'publishing a Surge project to this host name',
    sources: [
      ciito(),
      nuclei('surge-takeover.yaml'),
      subjack(),
      ciito('issues/198'),
      reaper('surge.py', '2022-07-24'),
    ],
  }),
  web({
    id: 'surveysparrow',
    service: 'SurveySparrow',
    cname: ['surveysparrow.com'],
    // can-i-take-over-xyz gives "Ouch! Account not found", nuclei "Account not found.", "ouch!" and
    // "SurveySparrow": what both hold. dnsReaper's "DNS resolution error" title is not the service's own page.
    body: ['Account not found', 'SurveySparrow'],
    status: 'vulnerable',
    reason:
      'listed vulnerable by can-i-take-over-xyz (issue 281); the page is the one its fingerprints.json and nuclei give',
    resource: 'account domain',
    claim: 'setting this host name as the custom domain of a SurveySparrow account',
    sources: [
      ciito('issues/281'),
      nuclei('surveysparrow-takeover.yaml'),
      reaper('surveysparrow.py', '2024-09-10'),
    ],
  }),
  web({
    id: 'teamwork',
    service: 'Teamwork',
    cname: ['teamwork.com'],
    anyBody: ["Oops - We didn't find your site."],
    // The references' sentence any 404 could say: counted on the service's own suffixes only.
    generic: ['The request could not be satisfied.'],
    status: 'vulnerable',
    reason: 'dnsReaper (2025), nuclei and subjack report unclaimed Teamwork sites as takeovers',
    resource: 'site',
    claim: 'setting this host name as the custom domain of a Teamwork site',
    sources: [subjack(), reaper('teamwork.py', '2025-10-04'), nuclei('teamwork-takeover.yaml')],
  }),
  web({
    id: 'tilda',
    service: 'Tilda',
    cname: ['tilda.ws'],
    body: ['Please go to the site settings and put the domain name in the Domain tab.'],
    // A lapsed subscription is the account's own site, still held: nuclei-templates makes it negative.
    negative: { body: ['Please renew your subscription'] },
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Tilda as an edge case',
    resource: 'site',
    claim: 'connecting this host name to a Tilda project',
    sources: [ciito('issues/155'), nuclei('tilda-takeover.yaml')],
  }),
  web({
    id: 'tumblr',
    service: 'Tumblr',
    cname: ['domains.tumblr.com'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Tumblr as an edge case',
    resource: 'blog',
    claim: 'setting this host name as the custom domain of a Tumblr blog',
    sources: [
      ciito('issues/240'),
      nuclei('tumblr-takeover.yaml'),
      reaper('tumblr.py', '2022-08-02'),
      subjack(),
    ],
    anyBody: [
      "Whatever you were looking for doesn't currently exist at this address",
      "There's nothing here.",
    ],
  }),
  web({
    id: 'uberflip',
    service: 'Uberflip',
    cname: ['read.uberflip.com'],
    body: ["The URL you've accessed does not provide a hub."],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'hub',
    claim: 'setting this host name as the custom domain of an Uberflip hub',
    sources: [ciito('issues/150'), nuclei('uberflip-takeover.yaml')],
  }),
  web({
    id: 'unbounce',
    service: 'Unbounce',
    cname: ['unbouncepages.com'],
    body: ['The requested URL was not found on this server.'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Unbounce as not vulnerable',
    resource: 'landing page',
    claim: 'remove the record',
    sources: [ciito('issues/11')],
  }),
  web({
    id: 'uptimerobot',
    service: 'UptimeRobot status page',
    cname: ['stats.uptimerobot.com'],
    body: ['page not found'],
    status: 'vulnerable',
    reason:
      'can-i-take-over-xyz lists UptimeRobot status pages as vulnerable (issue 45); the page text is generic, the CNAME is not',
    resource: 'status page',
    claim: 'setting this host name as the custom domain of an UptimeRobot status page',
    sources: [ciito('issues/45'), nuclei('uptimerobot-takeover.yaml')],
  }),
  web({
    id: 'uservoice',
    service: 'UserVoice',
    cname: ['uservoice.com'],
    body: ['This UserVoice subdomain is currently available!'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists UserVoice as not vulnerable',
    resource: 'portal',
    claim: 'remove the record',
    sources: [ciito('issues/163'), subjack(), nuclei('uservoice-takeover.yaml')],
  }),
  web({
    id: 'webflow',
    service: 'Webflow',
    cname: ['proxy.webflow.com', 'proxy-ssl.webflow.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      "The page you are looking for doesn't exist or has been moved.",
      'The page you are looking for doesn&#x27;t exist or has been moved',
    ],
    // The references' sentence any 404 could say: counted on the service's own suffixes only.
    generic: ['404 - Page not found'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Webflow as an edge case',
    resource: 'site',
    claim: 'adding this host name to a Webflow site',
    sources: [
      ciito('issues/44'),
      reaper('webflow.py', '2022-07-25'),
      subjack(),
      nuclei('webflow-takeover.yaml'),
    ],
  }),
  web({
    id: 'wix',
    service: 'Wix',
    cname: ['wixdns.net'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ["Looks Like This Domain Isn't Connected To A Website Yet!", 'Error ConnectYourDomain occurred'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Wix as an edge case',
    resource: 'site',
    claim: 'connecting this host name to a Wix site',
    sources: [ciito('issues/231'), reaper('wix.py.old', '2024-09-10'), nuclei('wix-takeover.yaml')],
  }),
  web({
    id: 'wordpress-com',
    service: 'WordPress.com',
    cname: ['wordpress.com'],
    body: ['Do you want to register'],
    // WordPress.com's page for a name it keeps (nuclei-templates).
    negative: { body: ['cannot be registered'] },
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'site',
    claim: 'creating the WordPress.com site named in the record and mapping this host name to it',
    sources: [
      ciito('pull/176'),
      reaper('wordpress_com_cname.py', '2024-03-10'),
      subjack(),
      nuclei('wordpress-takeover.yaml'),
    ],
  }),
  web({
    id: 'worksites',
    service: 'Worksites',
    cname: ['worksites.net'],
    // The address can-i-take-over-xyz and nuclei give for its custom domains.
    ips: ['69.164.223.206'],
    // can-i-take-over-xyz and nuclei-templates quote the page differently; any shows it.
    anyBody: [
      'Hello! Sorry, but the website you’re looking for doesn’t exist.',
      'Hello! Sorry, but the website you&rsquo;re looking for doesn&rsquo;t exist.',
      'Company Not Found',
    ],
    status: 'vulnerable',
    reason: 'listed vulnerable by can-i-take-over-xyz',
    resource: 'site',
    claim: 'creating a Worksites site with this host name',
    sources: [ciito('issues/142'), nuclei('worksites-takeover.yaml')],
  }),
  web({
    id: 'zendesk',
    service: 'Zendesk',
    cname: ['zendesk.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ['Help Center Closed', 'this help center no longer exists'],
    status: 'edge',
    reason:
      'can-i-take-over-xyz’s table says not vulnerable, but its PR 419 (2024-08, confirmed again 2025-07) reports Help Center takeovers working',
    resource: 'help center',
    claim: 'setting this host name as the host mapping of a Zendesk Help Center',
    sources: [
      ciito('issues/23'),
      at(`${CIITO}/pull/419`, '2025-07-03'),
      subjack(),
      nuclei('zendesk-takeover.yaml'),
    ],
  }),
  web({
    id: 'feedpress',
    service: 'FeedPress',
    cname: ['redirect.feedpress.me'],
    body: ['The feed has not been found.'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists FeedPress as not vulnerable',
    resource: 'feed',
    claim: 'remove the record',
    sources: [ciito('issues/80'), subjack()],
  }),
  web({
    id: 'fastly',
    service: 'Fastly',
    cname: ['fastly.net'],
    body: ['Fastly error: unknown domain'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Fastly as not vulnerable (domains are verified)',
    resource: 'service',
    claim: 'remove the record',
    sources: [ciito('issues/22'), subjack()],
  }),
  web({
    id: 'google-cloud-storage',
    service: 'Google Cloud Storage',
    cname: ['c.storage.googleapis.com', 'storage.googleapis.com'],
    body: ['NoSuchBucket', 'The specified bucket does not exist.'],
    status: 'not-vulnerable',
    reason: 'domain-named buckets require Search Console verification of the domain',
    resource: 'bucket',
    claim: 'remove the record',
    sources: [ciito()],
  }),
  web({
    id: 'mailchimp',
    service: 'Mailchimp landing pages',
    cname: ['mailchimpsites.com'],
    body: ["We can't find that page", 'built by Mailchimp but is no longer active'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Mailchimp as not vulnerable',
    resource: 'landing page',
    claim: 'remove the record',
    sources: [ciito('discussions/250')],
  }),
  web({
    id: 'freshdesk',
    service: 'Freshdesk',
    cname: ['freshdesk.com', 'freshservice.com'],
    body: ["We couldn't find", 'Maybe this is still fresh!'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Freshdesk as not vulnerable',
    resource: 'portal',
    claim: 'remove the record',
    sources: [ciito('issues/214')],
  }),
  web({
    id: 'statuspage',
    service: 'Atlassian Statuspage',
    cname: ['stspg-customer.com', 'statuspage.io'],
    body: ['You are being <a href="https://www.statuspage.io">redirected'],
    status: 'not-vulnerable',
    reason: 'Statuspage added DNS verification to prevent takeovers',
    resource: 'status page',
    claim: 'remove the record',
    sources: [ciito('pull/171'), subjack()],
  }),
  web({
    id: 'aha',
    service: 'Aha! Ideas',
    cname: ['ideas.aha.io'],
    status: 'vulnerable',
    reason:
      'dnsReaper restored its Aha! signature in 2025 after dropping it in 2022; nuclei reports unclaimed portals as takeovers',
    resource: 'ideas portal',
    claim: 'setting this host name as the custom domain of an Aha! ideas portal',
    sources: [reaper('aha.py', '2025-10-04'), nuclei('aha-takeover.yaml'), subjack()],
    anyBody: ['There is no portal here ... sending you back to Aha!', 'invalid-portal'],
  }),
  web({
    id: 'bigcartel',
    service: 'Big Cartel',
    cname: ['bigcartel.com'],
    status: 'vulnerable',
    reason:
      'nuclei, dnsReaper and subjack report unclaimed Big Cartel shops as takeovers; no source says otherwise',
    resource: 'shop',
    claim: 'adding this host name to a Big Cartel shop',
    sources: [subjack(), nuclei('bigcartel-takeover.yaml'), reaper('bigcartel.py', '2023-07-19')],
    anyBody: [
      'Oops! We couldn&#8217;t find that page.',
      'Oops! We could&#8217;t find that page.',
      'DNS resolution error',
    ],
  }),
  web({
    id: 'lovable',
    service: 'Lovable',
    cname: ['lovable.app'],
    body: ['Publish or update your Lovable project for it to appear here'],
    httpStatus: [404],
    status: 'vulnerable',
    reason:
      'BadDNS 2.0 ships a signature for unpublished Lovable projects as a takeover (any account can attach the custom domain); no source says Lovable verifies ownership',
    resource: 'project',
    claim: 'publishing a Lovable project with this host name as its custom domain',
    sources: [baddns('baddns_lovable.yml')],
  }),
  web({
    id: 'hashnode',
    service: 'Hashnode',
    cname: ['hashnode.network'],
    body: ['The deployment could not be found on Vercel', 'DEPLOYMENT_NOT_FOUND'],
    httpStatus: [404],
    status: 'vulnerable',
    reason:
      'BadDNS 2.0 ships a signature for Hashnode blogs whose custom domain no longer has a deployment (any account can add the domain to a blog); no source says Hashnode verifies ownership',
    resource: 'blog',
    claim: 'adding this host name as the custom domain of a Hashnode blog',
    sources: [baddns('baddns_hashnode.yml')],
  }),
  web({
    id: 'substack',
    service: 'Substack',
    cname: ['target.substack-custom-domains.com'],
    body: ["something is wrong with this site's configuration"],
    httpStatus: [409],
    status: 'vulnerable',
    paid: true,
    reason:
      'BadDNS 2.0 ships a signature for Substack custom domains no publication holds; connecting a custom domain to a publication costs a one-time fee',
    resource: 'publication',
    claim: 'connecting this host name to a Substack publication (a paid option)',
    sources: [baddns('baddns_substack.yml')],
  }),
  web({
    id: 'tribe',
    service: 'Tribe (tribeplatform.com)',
    cname: ['tribeplatform.com'],
    body: ['You can claim this address and build your own community right now!'],
    status: 'vulnerable',
    reason:
      "dnsReaper's tribe.so signature (in BadDNS's copy) reports the page that invites anyone to claim the address; the old Tribe domain of Bettermode",
    resource: 'community',
    claim: 'creating a Tribe community with this address',
    sources: [baddns('dnsreaper_tribe.yml')],
  }),
  web({
    id: 'brightcove',
    service: 'Brightcove Gallery',
    cname: ['bcvp0rtal.com', 'brightcovegallery.com', 'gallery.video'],
    anyBody: ['<p class="bc-gallery-error-code">Error Code: 404</p>'],
    // The references' sentence any 404 could say: counted on the service's own suffixes only.
    generic: ['Page Not Found'],
    status: 'vulnerable',
    reason:
      'dnsReaper and subjack report unclaimed Brightcove galleries as takeovers; no source says otherwise',
    resource: 'gallery',
    claim: 'setting this host name as the custom domain of a Brightcove gallery',
    sources: [subjack(), reaper('brightcove.py', '2022-07-24')],
  }),
  web({
    id: 'wishpond',
    service: 'Wishpond',
    cname: ['wishpond.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      'https://www.wishpond.com/404?campaign=true',
      'Oops! There isn’t a Wishpond Campaign published to this page.',
    ],
    status: 'vulnerable',
    reason: 'nuclei, dnsReaper (2024) and subjack report unclaimed Wishpond campaigns as takeovers',
    resource: 'campaign',
    claim: 'attaching this host name to a Wishpond campaign',
    sources: [subjack(), nuclei('wishpond-takeover.yaml'), reaper('wishpond.py', '2024-03-10')],
  }),
  web({
    id: 'aftership',
    service: 'AfterShip',
    cname: ['aftership.com'],
    body: ["The page you're looking for doesn't exist."],
    status: 'vulnerable',
    reason:
      'nuclei and subjack report unclaimed AfterShip tracking pages as takeovers; no source says otherwise',
    resource: 'tracking page',
    claim: 'setting this host name as the custom domain of an AfterShip tracking page',
    sources: [subjack(), nuclei('aftership-takeover.yaml')],
  }),
  web({
    id: 'simplebooklet',
    service: 'Simplebooklet',
    cname: ['simplebooklet.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      'The link to this Simplebooklet may have changed',
      'We can\'t find this <a href="https://simplebooklet.com',
    ],
    status: 'vulnerable',
    reason:
      'nuclei and dnsReaper (2024) report unclaimed Simplebooklet domains as takeovers; the fingerprint is dnsReaper’s newer one',
    resource: 'booklet',
    claim: 'attaching this host name to a Simplebooklet account',
    sources: [reaper('simplebooklet.py', '2024-09-10'), nuclei('simplebooklet-takeover.yaml')],
  }),
  web({
    id: 'getresponse',
    service: 'GetResponse landing pages',
    cname: ['gr8.com'],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists GetResponse as vulnerable (issue 235)',
    resource: 'landing page',
    claim: 'attaching this host name to a GetResponse landing page',
    sources: [
      ciito('issues/235'),
      nuclei('getresponse-takeover.yaml'),
      subjack(),
      reaper('getresponse.py', '2022-07-26'),
    ],
    anyBody: [
      'With GetResponse Landing Pages, lead generation has never been easier',
      'is no longer available',
    ],
  }),
  web({
    id: 'vend',
    service: 'Vend',
    cname: ['vendecommerce.com'],
    body: ["Looks like you've traveled too far into cyberspace"],
    status: 'edge',
    reason:
      'subjack’s page is Vend’s own, but dnsReaper (2022) shows unclaimed Vend hosts now serving Lightspeed’s sign-in page: the service changed hands',
    resource: 'store',
    claim: 'attaching this host name to a Vend store',
    sources: [nuclei('vend-takeover.yaml'), reaper('vendhq.py', '2022-08-01')],
  }),
  gone({
    id: 'apigee',
    service: 'Apigee developer portal',
    cname: ['apigee.net'],
    status: 'vulnerable',
    reason:
      'subjack (2026) reports NXDOMAIN Apigee portals (-portal.apigee.net) as takeovers; no source says otherwise',
    resource: 'developer portal',
    claim: 'creating an Apigee developer portal with the name in the record',
    sources: [subjack()],
  }),
  gone({
    id: 'smugmug',
    service: 'SmugMug',
    cname: ['domains.smugmug.com'],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists SmugMug as vulnerable (issue 60); unclaimed targets answer NXDOMAIN',
    resource: 'site',
    claim: 'connecting this host name to a SmugMug site',
    sources: [ciito('issues/60'), subjack(), nuclei('smugmug-takeover.yaml')],
  }),
  gone({
    id: 'microsoft-365-mail',
    service: 'Microsoft 365 (Exchange Online)',
    mx: ['mail.protection.outlook.com'],
    status: 'not-vulnerable',
    reason: 'adding a domain to a Microsoft 365 tenant requires a TXT verification record',
    resource: 'mail tenant',
    claim: 'remove the MX record or restore the domain in your tenant',
    sources: [
      { url: 'https://learn.microsoft.com/en-us/microsoft-365/admin/setup/add-domain', date: REVIEWED },
    ],
  }),
  zone({
    id: 'digitalocean-dns',
    service: 'DigitalOcean DNS',
    ns: ['digitalocean.com'],
    status: 'vulnerable',
    reason:
      'can-i-take-over-dns and can-i-take-over-xyz list DigitalOcean as vulnerable: any account may add a zone no other account holds',
    resource: 'DNS zone',
    claim: 'adding this zone to any DigitalOcean account and publishing records in it',
    sources: [citod(22), ciito(), reaper('digitalocean.py', '2022-07-25'), subjack('nstakeover.go')],
  }),
  zone({
    id: 'aws-route53',
    service: 'Amazon Route 53',
    ns: ['awsdns-*.com', 'awsdns-*.net', 'awsdns-*.org', 'awsdns-*.co.uk'],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-dns (2025, issue 1) lists Route 53 as not vulnerable: a new hosted zone gets a random nameserver set and Route 53 will not place it on a set another zone of that name used; this is newer than dnsReaper (2023) calling it an edge case',
    resource: 'hosted zone',
    claim: 'remove the NS records or recreate the hosted zone and update the delegation',
    sources: [citod(1), reaper('aws_ns.py', '2023-01-06'), subjack('nstakeover.go')],
  }),
  zone({
    id: 'google-cloud-dns',
    service: 'Google Cloud DNS',
    ns: ['googledomains.com'],
    status: 'edge',
    reason:
      'can-i-take-over-dns lists Google Cloud DNS as an edge case: a new zone must land on the same nameserver shard',
    resource: 'managed zone',
    claim: 'creating managed zones for this name until one lands on the same nameservers',
    sources: [citod(2), reaper('googlecloud.py', '2022-07-25'), subjack('nstakeover.go')],
  }),
  zone({
    id: 'linode-dns',
    service: 'Linode (Akamai) DNS Manager',
    ns: ['linode.com'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to any Linode account',
    sources: [citod(26), reaper('linode.py', '2022-07-25'), subjack('nstakeover.go')],
    reason:
      'can-i-take-over-dns lists Linode as vulnerable; subjack (2026) checks dangling Linode delegations',
  }),
  zone({
    id: 'ns1',
    service: 'NS1',
    ns: ['nsone.net'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-dns: NS1 registration is closed, so nobody new can add the zone',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [citod(7), reaper('nsone.py', '2022-07-25')],
  }),
  zone({
    id: 'hurricane-electric-dns',
    service: 'Hurricane Electric Free DNS',
    ns: ['he.net'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to any Hurricane Electric DNS account',
    sources: [
      citod(25),
      reaper('hurricane_electric.py', '2022-07-25'),
      nuclei('dns/can-i-take-over-dns.yaml'),
    ],
    reason:
      'can-i-take-over-dns lists Hurricane Electric as vulnerable: any free account may add a zone no account holds',
  }),
  web({
    id: 'announcekit',
    service: 'AnnounceKit',
    cname: ['cname.announcekit.app'],
    body: ['Error 404 - AnnounceKit'],
    httpStatus: [404],
    status: 'vulnerable',
    reason:
      'nuclei and dnsReaper report unclaimed AnnounceKit domains as takeovers; no source says otherwise',
    resource: 'changelog',
    claim: 'setting this host name as the custom domain of an AnnounceKit project',
    sources: [
      ciito('issues/228'),
      nuclei('announcekit-takeover.yaml'),
      reaper('announcekit.py', '2022-08-15'),
    ],
  }),
  web({
    id: 'brandpad',
    service: 'Brandpad',
    cname: ['brandpad.io'],
    body: ['is not registered as whitelabel or custom domain.'],
    status: 'vulnerable',
    reason: 'dnsReaper (2024) reports unclaimed Brandpad domains as takeovers; no source says otherwise',
    resource: 'brand guide',
    claim: 'adding this host name as the custom domain of a Brandpad guide',
    sources: [reaper('brandpad.py', '2024-09-27')],
  }),
  web({
    id: 'helprace',
    service: 'Helprace',
    cname: ['helprace.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      'There is no account configured for this address!',
      'Alias not configured!',
      'Admin of this Helprace account needs to set up domain alias',
    ],
    status: 'vulnerable',
    reason:
      'can-i-take-over-xyz lists Helprace as vulnerable (issue 115, newer than dnsReaper dropping its signature in 2022)',
    resource: 'help desk',
    claim: 'adding this host name to a Helprace account',
    sources: [ciito('issues/115'), nuclei('helprace-takeover.yaml')],
  }),
  web({
    id: 'thinkific',
    service: 'Thinkific',
    cname: ['thinkific.com'],
    anyBody: ['Cloudflare is currently unable to resolve your requested domain'],
    // The references' sentence any 404 could say: counted on the service's own suffixes only.
    generic: ['You may have mistyped the address or the page may have moved.'],
    status: 'vulnerable',
    reason: 'dnsReaper (2023) reports unclaimed Thinkific domains as takeovers, with this newer fingerprint',
    resource: 'school',
    claim: 'setting this host name as the custom domain of a Thinkific school',
    sources: [reaper('thinkific.py', '2023-07-19')],
  }),
  web({
    id: 'mashery',
    service: 'Mashery',
    cname: ['mashery.com'],
    body: ['Unrecognized domain'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Mashery as an edge case',
    resource: 'API portal',
    claim: 'adding this host name to a Mashery area',
    sources: [ciito('issues/14'), reaper('mashery.py', '2022-08-04'), nuclei('mashery-takeover.yaml')],
  }),
  web({
    id: 'frontify',
    service: 'Frontify',
    cname: ['cname.frontify.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: ['404 - Not Found - Frontify', 'Oops… looks like you got lost'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists it as an edge case',
    resource: 'brand portal',
    claim: 'adding this host name as the custom domain of a Frontify portal',
    sources: [ciito('issues/170'), reaper('frontify.py', '2023-07-19'), nuclei('frontify-takeover.yaml')],
  }),
  web({
    id: 'convertkit',
    service: 'ConvertKit (Kit) landing pages',
    cname: [],
    ips: ['3.13.222.255', '3.13.246.91', '3.130.60.26'],
    body: ['The page you were looking for doesn'],
    status: 'vulnerable',
    reason:
      'dnsReaper (2023) reports unclaimed ConvertKit landing domains as takeovers; no source says otherwise',
    resource: 'landing page',
    claim: 'adding this host name as the custom domain of a ConvertKit landing page',
    sources: [reaper('convertkit.py', '2023-07-19')],
  }),
  zone({
    id: 'dnsmadeeasy',
    service: 'DNS Made Easy',
    ns: ['dnsmadeeasy.com'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to an account at DNS Made Easy',
    sources: [citod(6), reaper('dnsmadeeasy.py', '2022-07-25'), nuclei('dns/can-i-take-over-dns.yaml')],
    reason:
      'can-i-take-over-dns lists DNS Made Easy as vulnerable: any account may add a zone no account holds',
  }),
  zone({
    id: 'dnsimple',
    service: 'DNSimple',
    ns: ['dnsimple.com'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to an account at DNSimple',
    sources: [citod(16), reaper('dnssimple.py', '2022-07-25'), nuclei('dns/can-i-take-over-dns.yaml')],
    reason: 'can-i-take-over-dns lists DNSimple as vulnerable: any account may add a zone no account holds',
  }),
  zone({
    id: 'dotster',
    service: 'Dotster',
    ns: ['dotster.com', 'nameresolve.com'],
    status: 'not-vulnerable',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [citod(18), reaper('dotster.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists Dotster as not vulnerable',
  }),
  zone({
    id: 'hostinger-dns',
    service: 'Hostinger DNS',
    ns: ['hostinger.com'],
    status: 'not-vulnerable',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [{ url: CITOD, date: CITOD_AT }, reaper('hostinger.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists Hostinger (old nameservers) as not vulnerable',
  }),
  zone({
    id: 'mediatemple-dns',
    service: 'Media Temple DNS',
    ns: ['mediatemple.net'],
    status: 'not-vulnerable',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [citod(23), reaper('mediatemplate.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists Media Temple as not vulnerable',
  }),
  zone({
    id: 'name-com-dns',
    service: 'Name.com DNS',
    ns: ['name.com'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to an account at Name.com DNS',
    sources: [citod(8), reaper('name.py', '2022-07-28'), nuclei('dns/can-i-take-over-dns.yaml')],
    paid: true,
    reason: 'can-i-take-over-dns lists Name.com as vulnerable with a purchase',
  }),
  zone({
    id: 'tierranet-dns',
    service: 'Tierranet (DomainDiscover) DNS',
    ns: ['domaindiscover.com'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to an account at Tierranet (DomainDiscover) DNS',
    sources: [citod(24), reaper('tierranet.py', '2022-07-28'), nuclei('dns/can-i-take-over-dns.yaml')],
    reason: 'can-i-take-over-dns lists TierraNet as vulnerable',
  }),
  zone({
    id: 'bizland-dns',
    service: 'BizLand DNS',
    ns: ['bizland.com', 'click2site.com'],
    status: 'not-vulnerable',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [citod(3), reaper('bizland.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists BizLand as not vulnerable',
  }),
  zone({
    id: 'reg-ru-dns',
    service: 'REG.RU DNS',
    ns: ['reg.ru'],
    status: 'vulnerable',
    resource: 'DNS zone',
    claim: 'adding this zone to an account at REG.RU DNS',
    sources: [citod(28), reaper('reg.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists REG.RU as vulnerable (payments may be blocked by sanctions)',
  }),
  zone({
    id: '000domains-dns',
    service: '000Domains DNS',
    ns: ['000domains.com'],
    status: 'not-vulnerable',
    resource: 'DNS zone',
    claim: 'remove the NS records',
    sources: [citod(19), reaper('000domains.py', '2022-07-25')],
    reason: 'can-i-take-over-dns lists 000Domains as not vulnerable',
  }),
  azure('azure-mobile-services', 'Azure Mobile Services', 'azure-mobile.net', 'mobile service', {
    status: 'retired',
    reason:
      'Mobile Services was retired (moved to App Service): BadDNS dropped azure-mobile.net (pull request 712, 2026-02-27)',
    source: BADDNS_AZURE_RETIRED,
  }),
  azure('azure-front-door', 'Azure Front Door', 'azurefd.net', 'Front Door endpoint', {
    status: 'not-vulnerable',
    reason:
      'new Front Door endpoints get a hash in their name, so a deleted name is not created again: BadDNS dropped azurefd.net as mitigated (pull request 712, 2026-02-27)',
    source: BADDNS_AZURE_RETIRED,
  }),
  azure(
    'azure-app-service-legacy',
    'Azure App Service (legacy domain)',
    'azurewebsites.windows.net',
    'web app',
  ),
  azure('azure-devops', 'Azure DevOps (Visual Studio Online)', 'visualstudio.com', 'organisation'),
  azure('azure-static-website', 'Azure Storage static website', 'web.core.windows.net', 'storage account'),
  web({
    id: 'airee',
    service: 'Airee.ru',
    cname: ['airee.ru'],
    body: ['Ошибка 402. Сервис Айри.рф не оплачен'],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists Airee.ru as vulnerable (issue 104)',
    resource: 'site',
    claim: 'adding this host name to an Airee.ru account',
    sources: [ciito('issues/104'), nuclei('airee-takeover.yaml'), reaper('airee_ru.py', '2022-07-24')],
  }),
  web({
    id: 'canny',
    service: 'Canny',
    cname: ['canny.io'],
    body: ['Company Not Found', 'There is no such company. Did you enter the right URL?'],
    status: 'vulnerable',
    reason: 'can-i-take-over-xyz lists Canny as vulnerable (issue 114)',
    resource: 'feedback board',
    claim: 'creating a Canny company and setting this host name as its custom domain',
    sources: [ciito('issues/114'), nuclei('canny-takeover.yaml'), subjack()],
  }),
  gone({
    id: 'discourse',
    service: 'Discourse (hosted)',
    cname: ['trydiscourse.com'],
    status: 'vulnerable',
    reason:
      'can-i-take-over-xyz lists hosted Discourse as vulnerable (issue 49); unclaimed names answer NXDOMAIN',
    resource: 'forum',
    claim: 'creating a hosted Discourse forum with the name in the record and adding this host name',
    sources: [ciito('issues/49'), subjack()],
  }),
  web({
    id: 'better-stack',
    service: 'Better Stack (Better Uptime) status page',
    cname: ['betteruptime.com', 'betterstack.com'],
    body: ['You are being <a href="https://uptime.betterstack.com">redirected</a>.'],
    httpStatus: [302],
    status: 'vulnerable',
    reason:
      'nuclei reports the redirect of an unclaimed status page as a takeover (can-i-take-over-xyz issue 368)',
    resource: 'status page',
    claim: 'setting this host name as the custom domain of a Better Stack status page',
    sources: [nuclei('uptime-takeover.yaml'), nuclei('betteruptime-takeover.yaml')],
  }),
  web({
    id: 'clever-cloud',
    service: 'Clever Cloud',
    cname: ['clever-cloud.com', 'cleverapps.io'],
    body: ["The application you're trying to access doesn't seem to exist", 'support@clever-cloud.com'],
    status: 'vulnerable',
    reason:
      'nuclei reports unclaimed Clever Cloud domains as takeovers; any account may attach a free domain',
    resource: 'application',
    claim: 'adding this host name as a domain of a Clever Cloud application',
    sources: [nuclei('clever-takeover.yaml')],
  }),
  web({
    id: 'flexbe',
    service: 'Flexbe',
    cname: ['flexbe.com'],
    body: ['Domain not configured', 'flexbe.com'],
    httpStatus: [404],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Flexbe domains as takeovers (can-i-take-over-xyz issue 237)',
    resource: 'site',
    claim: 'connecting this host name to a Flexbe site',
    sources: [nuclei('flexbe-takeover.yaml'), at(`${CIITO}/issues/237`, '2021-09-24')],
  }),
  web({
    id: 'flywheel',
    service: 'Flywheel',
    cname: ['flywheelsites.com', 'getflywheel.com'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Flywheel domains as takeovers (verified template)',
    resource: 'site',
    claim: 'adding this host name to a Flywheel site',
    sources: [nuclei('flywheel-takeover.yaml')],
    anyBody: [
      "We're sorry, you've landed on a page that is hosted by Flywheel",
      "We are sorry, you've landed on a page that is hosted by Flywheel",
    ],
  }),
  web({
    id: 'framer',
    service: 'Framer',
    cname: ['framer.app', 'framer.website', 'framercanvas.com'],
    body: ['Site Not Found | Framer'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Framer domains as takeovers',
    resource: 'site',
    claim: 'connecting this host name to a Framer site',
    sources: [nuclei('framer-takeover.yaml')],
  }),
  web({
    id: 'gitbook',
    service: 'GitBook',
    cname: ['gitbook.io'],
    body: ["If you need specifics, here's the error", 'Domain not found'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed GitBook domains as takeovers (can-i-take-over-xyz issue 259)',
    resource: 'space',
    claim: 'setting this host name as the custom domain of a GitBook space',
    sources: [nuclei('gitbook-takeover.yaml')],
  }),
  web({
    id: 'gohire',
    service: 'GoHire',
    cname: ['gohire.io'],
    body: ['You may have followed an invalid link or the job you are looking for has been archived'],
    httpStatus: [404],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed GoHire careers pages as takeovers (can-i-take-over-xyz issue 403)',
    resource: 'careers page',
    claim: 'setting this host name as the custom domain of a GoHire careers page',
    sources: [nuclei('gohire-takeover.yaml')],
  }),
  web({
    id: 'greatpages',
    service: 'GreatPages',
    cname: ['cname.greatpages.com.br'],
    httpStatus: [404],
    status: 'vulnerable',
    reason: 'nuclei reports a 404 at cname.greatpages.com.br as an unclaimed, claimable domain',
    resource: 'landing page',
    claim: 'connecting this host name to a GreatPages landing page',
    sources: [nuclei('greatpages-takeover.yaml')],
  }),
  web({
    id: 'helpdocs',
    service: 'HelpDocs',
    cname: ['helpdocs.io', 'helpdocs.com'],
    body: ["You've tried to access an account/page that does not exist"],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed HelpDocs domains as takeovers (can-i-take-over-xyz issue 402)',
    resource: 'knowledge base',
    claim: 'setting this host name as the custom domain of a HelpDocs knowledge base',
    sources: [
      nuclei('helpdocs-takeover.yaml'),
      nuclei('helpdocs-io-takeover.yaml'),
      nuclei('helpdocs.io-takeover.yaml'),
    ],
  }),
  web({
    id: 'jazzhr',
    service: 'JazzHR',
    cname: ['applytojob.com'],
    body: ['This account no longer active'],
    status: 'vulnerable',
    reason: 'nuclei reports closed JazzHR career sites as takeovers',
    resource: 'career site',
    claim: 'setting this host name as the custom domain of a JazzHR career site',
    sources: [nuclei('jazzhr-takeover.yaml')],
  }),
  web({
    id: 'leadpages',
    service: 'Leadpages',
    cname: ['leadpages.net', 'lpages.co'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Leadpages domains as takeovers (can-i-take-over-xyz issue 166)',
    resource: 'landing page',
    claim: 'connecting this host name to a Leadpages landing page',
    sources: [nuclei('leadpages-takeover.yaml')],
    anyBody: [
      "This page couldn't be found, so let's get you turned around!",
      "The page you're looking for may have moved.",
      'Double check that you have the right web address and give it another go!',
    ],
  }),
  web({
    id: 'lemlist',
    service: 'lemlist',
    cname: ['lemlist.com'],
    body: ['Custom domain check', 'app.lemlist.com'],
    status: 'vulnerable',
    reason: 'nuclei reports a lemlist tracking domain without a custom page as claimable by any account',
    resource: 'custom page domain',
    claim: 'entering this host name as the custom page domain of a lemlist account',
    sources: [nuclei('lemlist-takeover.yaml'), nuclei('dns/lemlist-takeover.yaml')],
  }),
  web({
    id: 'meteor',
    service: 'Meteor Galaxy',
    cname: ['meteorapp.com', 'meteor.com'],
    body: ["404 Not Found: No applications registered for host '"],
    status: 'vulnerable',
    reason: 'nuclei reports unregistered Meteor Galaxy hosts as takeovers (can-i-take-over-xyz issue 321)',
    resource: 'application',
    claim: 'deploying a Meteor Galaxy application with this host name',
    sources: [nuclei('meteor-takeover.yaml')],
  }),
  web({
    id: 'pagewiz',
    service: 'Pagewiz',
    cname: ['pagewiz.net', 'pagewiz.com'],
    body: ['404 - Page Not Found', 'Start Your New Landing Page Now!'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Pagewiz domains as takeovers',
    resource: 'landing page',
    claim: 'connecting this host name to a Pagewiz landing page',
    sources: [nuclei('pagewiz-takeover.yaml')],
  }),
  web({
    id: 'proposify',
    service: 'Proposify',
    cname: ['proposify.biz', 'proposify.com'],
    body: ['If you need immediate assistance, please contact <a href="mailto:support@proposify.biz'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Proposify domains as takeovers',
    resource: 'proposal site',
    claim: 'setting this host name as the custom domain of a Proposify account',
    sources: [nuclei('proposify-takeover.yaml')],
  }),
  web({
    id: 'softr',
    service: 'Softr',
    cname: ['softr.app', 'softr.io'],
    body: ['The application you were looking for was built on Softr', 'Get started with Softr'],
    httpStatus: [404],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Softr domains as takeovers (can-i-take-over-xyz issue 352)',
    resource: 'application',
    claim: 'adding this host name as the custom domain of a Softr application',
    sources: [nuclei('softr-takeover.yaml'), nuclei('softr.yaml')],
  }),
  web({
    id: 'sprintful',
    service: 'Sprintful',
    cname: ['sprintful.com'],
    body: ['Sprintful'],
    httpStatus: [200],
    status: 'vulnerable',
    reason: 'nuclei reports Sprintful domains without a page as takeovers',
    resource: 'booking page',
    claim: 'setting this host name as the custom domain of a Sprintful calendar',
    sources: [nuclei('sprintful-takeover.yaml')],
    anyBody: [
      'The user account associated with this calendar has been deactivated.',
      'Please contact the owner of this calendar directly in order to book a meeting.',
      'This domain name does not have a default page configured.',
    ],
  }),
  web({
    id: 'squadcast',
    service: 'Squadcast status page',
    cname: ['squadcast.com'],
    body: ['There doesn’t seem to be an active status page associated with this URL.'],
    httpStatus: [404],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Squadcast status pages as takeovers (can-i-take-over-xyz issue 398)',
    resource: 'status page',
    claim: 'setting this host name as the custom domain of a Squadcast status page',
    sources: [nuclei('squadcast-takeover.yaml')],
  }),
  web({
    id: 'surveygizmo',
    service: 'SurveyGizmo (Alchemer)',
    cname: ['sgizmo.com', 'sgizmoca.com', 'sgizmoeu.com', 'surveygizmo.com'],
    body: ['data-html-name'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed SurveyGizmo private domains as takeovers',
    resource: 'private domain',
    claim: 'adding this host name as a private domain of a SurveyGizmo account',
    sources: [nuclei('surveygizmo-takeover.yaml')],
  }),
  web({
    id: 'tave',
    service: 'Táve',
    cname: ['tave.com'],
    body: ['<h1>Error 404: Page Not Found</h1>'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Táve client domains as takeovers',
    resource: 'client portal',
    claim: 'setting this host name as the custom domain of a Táve studio',
    sources: [nuclei('tave-takeover.yaml')],
  }),
  web({
    id: 'wasabi',
    service: 'Wasabi',
    cname: ['wasabisys.com'],
    body: ['The specified bucket does not exist', 'BucketName'],
    status: 'vulnerable',
    reason:
      'bucket names are global; nuclei reports a missing Wasabi bucket as a takeover (can-i-take-over-xyz issue 417)',
    resource: 'bucket',
    claim: 'creating a Wasabi bucket named exactly like this host name',
    sources: [
      nuclei('wasabi-bucket-takeover.yaml'),
      at(`${CIITO}/issues/417`, '2024-08-10'),
      at(`${CIITO}/pull/446`, '2025-04-11'),
    ],
  }),
  web({
    id: 'wufoo',
    service: 'Wufoo',
    cname: ['wufoo.com'],
    body: ['Profile not found', 'Hmmm....something is not right.'],
    status: 'vulnerable',
    reason: 'nuclei reports unclaimed Wufoo profiles as takeovers',
    resource: 'form profile',
    claim: 'creating the Wufoo account named in the record',
    sources: [nuclei('wufoo-takeover.yaml')],
  }),
  web({
    id: 'kickofflabs',
    service: 'KickoffLabs',
    cname: ['kickofflabs.edgeapp.net', 'kickofflabs.com'],
    body: ['Landing Page Not Found'],
    status: 'vulnerable',
    reason: 'subjack (2026) reports unclaimed KickoffLabs landing pages as takeovers',
    resource: 'landing page',
    claim: 'connecting this host name to a KickoffLabs landing page',
    sources: [subjack()],
  }),
  web({
    id: 'bettermode',
    service: 'Bettermode (formerly Tribe)',
    cname: ['domains.bettermode.io'],
    httpStatus: [409],
    status: 'vulnerable',
    reason: 'dnsReaper (2025) reports the 409 of domains.bettermode.io as an unclaimed community domain',
    resource: 'community',
    claim: 'setting this host name as the custom domain of a Bettermode community',
    sources: [reaper('bettermode.py', '2025-10-04')],
  }),
  web({
    id: 'zoho-forms',
    service: 'Zoho Forms',
    cname: ['forms.cs.zohohost.com', 'forms.cs.zohohost.eu'],
    httpStatus: [400],
    status: 'vulnerable',
    reason: 'dnsReaper reports the 400 of an unmapped Zoho Forms custom domain as claimable',
    resource: 'form domain',
    claim: 'mapping this host name as the custom domain of a Zoho Forms account',
    sources: [reaper('zohoforms.py', '2022-08-18')],
  }),
  web({
    id: 'zoho-forms-in',
    service: 'Zoho Forms (India)',
    cname: ['forms.cs.zohohost.in'],
    httpStatus: [403],
    status: 'vulnerable',
    reason: 'dnsReaper reports the 403 of an unmapped Zoho Forms India custom domain as claimable',
    resource: 'form domain',
    claim: 'mapping this host name as the custom domain of a Zoho Forms India account',
    sources: [reaper('zohoforms_in.py', '2022-08-18')],
  }),
  web({
    id: 'mailgun',
    service: 'Mailgun tracking domain',
    cname: ['mailgun.org'],
    httpStatus: [404],
    status: 'edge',
    verifiesDomain:
      'Mailgun verifies a domain by a TXT record under it before it serves or sends for it (issue 393, 2025-01; nuclei issue 13900, 2025-11)',
    resource: 'tracking domain',
    claim: 'adding this host name as the tracking domain of a Mailgun sending domain',
    sources: [
      nuclei('mailgun-takeover.yaml'),
      at(`${CIITO}/issues/451`, '2025-07-11'),
      at(`${CIITO}/issues/393`, '2025-01-14'),
      at(`${NUCLEI_ISSUES}/issues/13900`, '2025-11-12'),
    ],
    reason:
      'nuclei’s template (can-i-take-over-xyz issue 451, 2025-07) calls it claimable; issue 393 (2025-01) and a nuclei false-positive report (2025-11) say Mailgun now asks for a TXT verification',
  }),
  web({
    id: 'redirect-pizza',
    service: 'redirect.pizza',
    cname: ['redirect.pizza'],
    body: ['redirect.pizza'],
    httpStatus: [200, 404],
    status: 'vulnerable',
    reason:
      'nuclei reports a host pointed at redirect.pizza but not configured there as claimable by any account',
    resource: 'redirect',
    claim: 'adding this host name as the source of a redirect on a redirect.pizza account',
    sources: [nuclei('redirect-pizza-takeover.yaml')],
  }),
  web({
    id: 'desk',
    service: 'Desk.com',
    cname: ['desk.com'],
    body: ['Please try again or try Desk.com free for 14 days.'],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-xyz lists Desk as not vulnerable (issue 9); the service was retired into Salesforce',
    resource: 'help center',
    claim: 'remove the record',
    sources: [ciito('issues/9')],
  }),
  gone({
    id: 'firebase-hosting',
    service: 'Firebase Hosting',
    cname: ['firebaseapp.com', 'web.app'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Firebase as not vulnerable (issue 128): custom domains are verified',
    resource: 'site',
    claim: 'remove the record',
    sources: [ciito('issues/128')],
  }),
  gone({
    id: 'gitlab-pages',
    service: 'GitLab Pages',
    cname: ['gitlab.io'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists GitLab as not vulnerable: Pages domains need a TXT verification',
    resource: 'Pages site',
    claim: 'remove the record',
    sources: [ciito()],
  }),
  gone({
    id: 'squarespace',
    service: 'Squarespace',
    cname: ['squarespace.com'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Squarespace as not vulnerable',
    resource: 'site',
    claim: 'remove the record',
    sources: [ciito()],
  }),
  gone({
    id: 'sendgrid',
    service: 'SendGrid',
    cname: ['sendgrid.net'],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-xyz lists SendGrid as not vulnerable: sender domains are authenticated per account',
    resource: 'sender domain',
    claim: 'remove the record',
    sources: [ciito()],
  }),
  web({
    id: 'smartling',
    service: 'Smartling',
    cname: ['smartling.com'],
    body: ['Domain is not configured'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Smartling as an edge case (issue 67)',
    resource: 'translation proxy',
    claim: 'adding this host name to a Smartling global delivery project',
    sources: [ciito('issues/67')],
  }),
  web({
    id: 'landingi',
    service: 'Landingi',
    cname: ['landingi.com'],
    body: ['It looks like you’re lost...'],
    status: 'edge',
    reason: 'can-i-take-over-xyz lists Landingi as an edge case (issue 117)',
    resource: 'landing page',
    claim: 'connecting this host name to a Landingi landing page',
    sources: [ciito('issues/117')],
  }),
  web({
    id: 'google-sites',
    service: 'Google Sites',
    cname: ['ghs.googlehosted.com'],
    // nuclei-templates quotes the page differently; either shows it.
    anyBody: [
      'The requested URL was not found on this server. That’s all we know.',
      'was not found on this server.  <ins>That’s all we know.</ins>',
    ],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-xyz lists Google Sites as not vulnerable (issue 277): domains are verified in Search Console',
    resource: 'site',
    claim: 'remove the record',
    sources: [ciito('issues/277'), nuclei('googlesites-takeover.yaml')],
  }),
  web({
    id: 'acquia',
    service: 'Acquia Cloud',
    cname: ['acquia-sites.com'],
    body: ['Web Site Not Found'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists Acquia as not vulnerable (issue 103)',
    resource: 'site',
    claim: 'remove the record',
    sources: [ciito('issues/103')],
  }),
  gone({
    id: 'akamai',
    service: 'Akamai',
    cname: ['edgekey.net', 'edgesuite.net', 'akamaiedge.net'],
    status: 'not-vulnerable',
    reason:
      'can-i-take-over-xyz lists Akamai as not vulnerable (issue 13): properties need a contract and domain validation',
    resource: 'property',
    claim: 'remove the record',
    sources: [ciito('issues/13')],
  }),
  gone({
    id: 'instapage',
    service: 'Instapage',
    cname: ['pageserve.co'],
    status: 'edge',
    reason: 'listed not vulnerable (issue 73), but a 2025-08-14 comment there reports a fresh takeover',
    resource: 'landing page',
    claim: 'connecting this host name to an Instapage landing page',
    sources: [ciito('issues/73'), at(`${CIITO}/issues/73`, '2025-08-14')],
  }),
  gone({
    id: 'keycdn',
    service: 'KeyCDN',
    cname: ['kxcdn.com'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists KeyCDN as not vulnerable (issue 112): zone names carry the account id',
    resource: 'pull zone',
    claim: 'remove the record',
    sources: [ciito('issues/112')],
  }),
  gone({
    id: 'wp-engine',
    service: 'WP Engine',
    cname: ['wpengine.com'],
    status: 'not-vulnerable',
    reason: 'can-i-take-over-xyz lists WP Engine as not vulnerable',
    resource: 'install',
    claim: 'remove the record',
    sources: [ciito()],
  }),
  zone({
    id: 'domain-com-dns',
    service: 'Domain.com DNS',
    ns: ['ns1.domain.com', 'ns2.domain.com'],
    status: 'vulnerable',
    paid: true,
    reason: 'can-i-take-over-dns lists Domain.com as vulnerable with a purchase',
    resource: 'DNS zone',
    claim: 'buying a Domain.com hosting plan and adding this zone to it',
    sources: [citod(17), reaper('domain.py', '2022-07-25'), nuclei('dns/can-i-take-over-dns.yaml')],
  }),
  zone({
    id: 'yahoo-small-business-dns',
    service: 'Yahoo Small Business DNS',
    ns: ['yns1.yahoo.com', 'yns2.yahoo.com'],
    status: 'vulnerable',
    paid: true,
    reason:
      'can-i-take-over-dns (2025) lists Yahoo Small Business as vulnerable with a purchase, newer than dnsReaper dropping its signature in 2022',
    resource: 'DNS zone',
    claim: 'buying a Yahoo Small Business plan and adding this zone to it',
    sources: [citod(20), nuclei('dns/can-i-take-over-dns.yaml')],
  }),
  zone({
    id: 'vultr-dns',
    service: 'Vultr DNS',
    ns: ['vultr.com'],
    status: 'vulnerable',
    reason:
      'subjack (2026) reports dangling Vultr delegations as takeovers: any account may add a zone no account holds',
    resource: 'DNS zone',
    claim: 'adding this zone to any Vultr account',
    sources: [subjack('nstakeover.go')],
  }),
  zone({
    id: 'wordpress-com-dns',
    service: 'WordPress.com DNS',
    ns: ['ns1.wordpress.com', 'ns2.wordpress.com', 'ns3.wordpress.com'],
    status: 'vulnerable',
    paid: true,
    reason:
      'dnsReaper reports a zone missing on WordPress.com nameservers as a takeover; mapping a domain needs a paid plan',
    resource: 'DNS zone',
    claim: 'adding this domain to a paid WordPress.com site, which creates its zone',
    sources: [reaper('wordpress_com_ns.py', '2022-07-24')],
  }),
  zone({
    id: 'azure-dns',
    service: 'Azure DNS',
    ns: ['azure-dns.com', 'azure-dns.net', 'azure-dns.org', 'azure-dns.info'],
    status: 'edge',
    reason:
      'can-i-take-over-dns lists Azure DNS as an edge case: a new zone must land on the same nameserver set',
    resource: 'DNS zone',
    claim: 'creating Azure DNS zones for this name until one is placed on the same nameservers',
    sources: [citod(5), subjack('nstakeover.go'), nuclei('dns/can-i-take-over-dns.yaml')],
  }),
  zone({
    id: 'dreamhost-dns',
    service: 'DreamHost DNS',
    ns: ['ns1.dreamhost.com', 'ns2.dreamhost.com', 'ns3.dreamhost.com'],
    status: 'edge',
    reason: 'can-i-take-over-dns lists DreamHost as an edge case (issue 40)',
    resource: 'DNS zone',
    claim: 'adding this domain to a DreamHost account',
    sources: [citod(40)],
  }),
  ...VERIFYING_DNS_HOSTS.map(([id, service, ns, issue]) =>
    zone({
      id,
      service,
      ns,
      status: 'not-vulnerable',
      reason: `can-i-take-over-dns lists ${service} as not vulnerable: a zone cannot be added by an account that does not own the domain`,
      resource: 'DNS zone',
      claim: 'remove the NS records or recreate the zone in your account',
      sources: [citod(issue)],
    }),
  ),
  ...VERIFYING_DNS_HOSTS_UNLINKED.map(([id, service, ns]) =>
    zone({
      id,
      service,
      ns,
      status: 'not-vulnerable',
      reason: `can-i-take-over-dns lists ${service} as not vulnerable: a zone cannot be added by an account that does not own the domain`,
      resource: 'DNS zone',
      claim: 'remove the NS records or recreate the zone in your account',
      sources: [{ url: CITOD, date: CITOD_AT }],
    }),
  ),
  ...CLOSED_NAMESERVERS.map(([id, service, ns, reason, url]) =>
    zone({
      id,
      service,
      ns,
      status: 'not-vulnerable',
      reason,
      resource: 'DNS zone',
      claim: 'remove the NS records if the delegation is no longer wanted',
      sources: [{ url, date: REVIEWED }],
    }),
  ),
];

export const catalogue: readonly Entry[] = z.array(entrySchema).parse(raw);

if (new Set(catalogue.map((e) => e.id)).size !== catalogue.length) {
  throw new Error('fingerprint catalogue: duplicate ids');
}
