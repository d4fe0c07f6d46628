import {
  type CloudflareRecord,
  type Credentials,
  dnsRecords,
  type Zone,
  zones,
} from '../../../connectors/cloudflare/dns.ts';
import {
  credentialSchemas,
  PROVIDER_NAMES,
  type ProviderCallOptions,
  ProviderError,
} from '../../../connectors/dns/provider.ts';
import type { ZoneRecord } from '../record.ts';
import { presentationData } from '../zone-file.ts';
import { providerHost, zoneName } from './names.ts';
import type { DnsProvider } from './provider.ts';

/** Cloudflare's "automatic" TTL, which it serves as 300 s. */
const AUTO_TTL = 300;

function toRecord(record: CloudflareRecord, zone: string): ZoneRecord {
  const base = {
    name: zoneName(record.name),
    type: record.type.toUpperCase(),
    ttl: record.ttl === 1 ? AUTO_TTL : record.ttl,
  };
  const content = record.content ?? '';
  switch (base.type) {
    case 'CNAME':
    case 'NS':
      return { ...base, data: providerHost(content, zone) };
    case 'MX':
      return { ...base, data: `${record.priority ?? 0} ${providerHost(content, zone)}` };
    case 'SRV': {
      const data = record.data ?? {};
      const [weight, port, target] = content.split(/\s+/);
      return {
        ...base,
        data: `${data.priority ?? record.priority ?? 0} ${data.weight ?? weight ?? 0} ${data.port ?? port ?? 0} ${providerHost(data.target ?? target ?? '', zone)}`,
      };
    }
    case 'TXT':
      // Cloudflare now shows TXT content quoted, as in a zone file; older records come bare.
      return { ...base, data: content.startsWith('"') ? presentationData('TXT', content, zone) : content };
    default:
      return { ...base, data: content };
  }
}

async function findZone(
  credentials: Credentials,
  name: string,
  options: ProviderCallOptions | undefined,
): Promise<Zone> {
  let found: Zone | undefined;
  for await (const zone of zones(credentials, options, name))
    found ??= zoneName(zone.name) === name ? zone : undefined;
  if (!found)
    throw new ProviderError(
      'cloudflare',
      'not-found',
      `no zone ${name}`,
      `The token cannot read a zone named ${name} in Cloudflare`,
    );
  return found;
}

/** Cloudflare's v4 API through its SDK, with an API token holding Zone:Read and DNS:Read. */
export const cloudflare: DnsProvider<Credentials> = {
  id: 'cloudflare',
  label: PROVIDER_NAMES.cloudflare,
  credentials: credentialSchemas.cloudflare,
  async listZones(credentials, options) {
    const names: string[] = [];
    for await (const zone of zones(credentials, options)) names.push(zoneName(zone.name));
    return names;
  },
  async *readZone(credentials, zone, options) {
    const name = zoneName(zone);
    const { id } = await findZone(credentials, name, options);
    for await (const record of dnsRecords(credentials, id, options)) {
      let turned: ZoneRecord;
      try {
        turned = toRecord(record, name);
      } catch (error) {
        throw new ProviderError(
          'cloudflare',
          'malformed',
          `Cloudflare API sent an unexpected answer: ${(error as Error).message}`,
        );
      }
      yield turned;
    }
  },
  async delegation(credentials, zone, options) {
    const found = await findZone(credentials, zoneName(zone), options);
    // A zone that Cloudflare has not seen delegated to it stays `pending` (or `initializing`).
    return {
      nameServers: (found.name_servers ?? []).map(zoneName),
      active: found.status === 'active',
      status: found.status,
    };
  },
};
