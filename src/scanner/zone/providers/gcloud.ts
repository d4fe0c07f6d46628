import {
  credentialSchemas,
  PROVIDER_NAMES,
  type ProviderCallOptions,
  ProviderError,
} from '../../../connectors/dns/provider.ts';
import {
  type Credentials,
  type ManagedZone,
  managedZones,
  recordSets,
} from '../../../connectors/gcloud/dns.ts';
import { hostName } from '../presentation.ts';
import type { ZoneRecord } from '../record.ts';
import { presentationData } from '../zone-file.ts';
import { zoneName } from './names.ts';
import type { DnsProvider } from './provider.ts';

async function findZone(
  credentials: Credentials,
  name: string,
  options: ProviderCallOptions | undefined,
): Promise<ManagedZone> {
  for await (const candidate of managedZones(credentials, options, name))
    if (zoneName(candidate.dnsName) === name) return candidate;
  throw new ProviderError(
    'gcloud',
    'not-found',
    `no public managed zone ${name}`,
    `Google Cloud DNS has no public managed zone named ${name}`,
  );
}

/** Google Cloud DNS's REST API v1 with a service account holding `roles/dns.reader`. */
export const gcloud: DnsProvider<Credentials> = {
  id: 'gcloud',
  label: PROVIDER_NAMES.gcloud,
  credentials: credentialSchemas.gcloud,
  async listZones(credentials, options) {
    const zones: string[] = [];
    for await (const zone of managedZones(credentials, options)) zones.push(zoneName(zone.dnsName));
    return zones;
  },
  async *readZone(credentials, zone, options) {
    const name = zoneName(zone);
    const found = await findZone(credentials, name, options);
    for await (const rrset of recordSets(found, options)) {
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
  },
  async delegation(credentials, zone, options) {
    const found = await findZone(credentials, zoneName(zone), options);
    return { nameServers: found.nameServers.map(zoneName), active: true };
  },
};
