import {
  type Credentials,
  DIGITALOCEAN_NAME_SERVERS,
  type DigitalOceanRecord,
  domainRecords,
  listDomains,
} from '../../../connectors/digitalocean/dns.ts';
import { credentialSchemas, PROVIDER_NAMES } from '../../../connectors/dns/provider.ts';
import type { ZoneRecord } from '../record.ts';
import { ownerName, providerHost, zoneName } from './names.ts';
import type { DnsProvider } from './provider.ts';

/** A DigitalOcean record in `ZoneRecord` form: owners and hosts made absolute, MX/SRV/CAA data joined. */
function toRecord(record: DigitalOceanRecord, zone: string): ZoneRecord {
  const base = { name: ownerName(record.name, zone), type: record.type.toUpperCase(), ttl: record.ttl };
  const host = () => providerHost(record.data, zone);
  switch (base.type) {
    case 'CNAME':
    case 'NS':
      return { ...base, data: host() };
    case 'MX':
      return { ...base, data: `${record.priority ?? 0} ${host()}` };
    case 'SRV':
      return { ...base, data: `${record.priority ?? 0} ${record.weight ?? 0} ${record.port ?? 0} ${host()}` };
    case 'CAA':
      return { ...base, data: `${record.flags ?? 0} ${record.tag ?? ''} "${record.data}"` };
    default:
      return { ...base, data: record.data };
  }
}

/** DigitalOcean's REST API v2 with a read-scoped token. */
export const digitalocean: DnsProvider<Credentials> = {
  id: 'digitalocean',
  label: PROVIDER_NAMES.digitalocean,
  credentials: credentialSchemas.digitalocean,
  async listZones(credentials, options) {
    return (await listDomains(credentials, options)).map(zoneName);
  },
  async *readZone(credentials, zone, options) {
    const name = zoneName(zone);
    for await (const record of domainRecords(credentials, name, options)) yield toRecord(record, name);
  },
  async delegation() {
    return { nameServers: DIGITALOCEAN_NAME_SERVERS, active: true };
  },
};
