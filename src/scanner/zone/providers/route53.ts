import {
  type Credentials,
  decodeName,
  delegationNameServers,
  publicHostedZones,
  recordSets,
} from '../../../connectors/aws/route53.ts';
import {
  credentialSchemas,
  PROVIDER_NAMES,
  type ProviderCallOptions,
  ProviderError,
} from '../../../connectors/dns/provider.ts';
import { hostName } from '../presentation.ts';
import type { ZoneRecord } from '../record.ts';
import { presentationData } from '../zone-file.ts';
import type { DnsProvider } from './provider.ts';

/** An alias answers with its target's TTL, which Route 53 does not list; 60 s is AWS's usual. */
const ALIAS_TTL = 60;

const nameOf = (name: string) => hostName(decodeName(name));

async function findZoneId(credentials: Credentials, name: string, options: ProviderCallOptions | undefined) {
  for (const candidate of await publicHostedZones(credentials, options))
    if (hostName(candidate.name) === name) return candidate.id;
  throw new ProviderError(
    'route53',
    'not-found',
    `no public hosted zone ${name}`,
    `The key cannot read a public hosted zone named ${name} in Amazon Route 53`,
  );
}

/**
 * Amazon Route 53 through the AWS SDK (SigV4), with an access key allowed only the List actions
 * and `route53:GetHostedZone` (the zone's delegation set).
 */
export const route53: DnsProvider<Credentials> = {
  id: 'route53',
  label: PROVIDER_NAMES.route53,
  credentials: credentialSchemas.route53,
  async listZones(credentials, options) {
    return (await publicHostedZones(credentials, options)).map((zone) => hostName(zone.name));
  },
  async *readZone(credentials, zone, options) {
    const id = await findZoneId(credentials, hostName(zone), options);
    for await (const set of recordSets(credentials, id, options)) {
      const owner = nameOf(set.Name);
      const type = set.Type.toUpperCase();
      if (set.AliasTarget) {
        yield {
          name: owner,
          type: 'ALIAS',
          ttl: ALIAS_TTL,
          data: nameOf(set.AliasTarget.DNSName),
        } satisfies ZoneRecord;
        continue;
      }
      for (const { Value } of set.ResourceRecords ?? []) {
        let data: string;
        try {
          // Route 53 takes every name as absolute, with or without its final dot.
          data = presentationData(type, Value, '');
        } catch (error) {
          throw new ProviderError(
            'route53',
            'malformed',
            `Route 53 sent a ${type} record it cannot read: ${(error as Error).message.replace(/^line 1: /, '')}`,
          );
        }
        yield { name: owner, type, ttl: set.TTL ?? 0, data } satisfies ZoneRecord;
      }
    }
  },
  async delegation(credentials, zone, options) {
    const id = await findZoneId(credentials, hostName(zone), options);
    return {
      nameServers: (await delegationNameServers(credentials, id, options)).map(hostName),
      active: true,
    };
  },
};
