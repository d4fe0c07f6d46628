import { Resolver } from 'node:dns/promises';
import {
  type ProviderCallOptions,
  ProviderError,
  type ProviderId,
  type ZoneDelegation,
} from '../../connectors/dns/provider.ts';
import { normaliseName } from '../../scanner/dns/names.ts';
import { providers } from '../../scanner/zone/providers/index.ts';

/**
 * Whether a connected zone proves its domain. Anyone can create a zone for any name at Cloudflare,
 * Route 53, DigitalOcean or Cloud DNS, so a credential that lists a zone proves nothing; whoever
 * controls what public DNS answers for the domain owns it. The zone proves its domain only when the
 * public NS set (as the scan resolvers answer it) is exactly the set the provider assigned to the
 * zone, and the provider counts the zone as in service.
 */
export type ZoneProof =
  | { proven: true }
  /** `definite`: public DNS and the provider answered, and they disagree; otherwise one could not be asked. */
  | { proven: false; definite: boolean; reason: string };

export const ZONE_PROOF_MESSAGES = {
  pending: (zone: string, provider: string, status: string) =>
    `${provider} says the zone ${zone} is not active (status ${status}): it becomes proof of ownership once public DNS delegates ${zone} to ${provider}'s name servers. Until then, prove ownership with the TXT record.`,
  elsewhere: (zone: string, provider: string, found: string[], assigned: string[]) =>
    `Public DNS delegates ${zone} to ${found.join(', ')}, not to the name servers ${provider} assigned to this zone (${assigned.join(', ')}). The zone is linked and its records are kept; it becomes proof of ownership once the delegation points at ${provider}, or prove ownership with the TXT record.`,
  undelegated: (zone: string, provider: string) =>
    `Public DNS has no name servers for ${zone}, so the ${provider} zone cannot prove ownership yet. Prove ownership with the TXT record, or delegate the domain to ${provider}.`,
  dnsUnavailable: (zone: string) =>
    `Public DNS did not answer for the name servers of ${zone}; the delegation is checked again at the next sync.`,
  providerUnavailable: (provider: string, reason: string) =>
    `${provider} did not say which name servers it assigned to this zone (${reason}); the delegation is checked again at the next sync.`,
} as const;

export interface ZoneProofOptions {
  /** The scan resolvers (host or host:port); the system's when absent. */
  resolvers?: string[];
  providerOptions?: ProviderCallOptions;
  timeoutMs?: number;
}

/** The NS set public DNS gives for the zone: names, or why there is none. */
async function publicNameServers(
  zone: string,
  options: ZoneProofOptions,
): Promise<{ servers: string[] } | { servers: null; definite: boolean }> {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: 2 });
  if (options.resolvers?.length) resolver.setServers(options.resolvers);
  try {
    return { servers: (await resolver.resolveNs(zone)).map(normaliseName) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { servers: null, definite: code === 'ENOTFOUND' || code === 'ENODATA' };
  }
}

export async function checkZoneProof(
  providerId: ProviderId,
  credentials: Record<string, string>,
  zone: string,
  options: ZoneProofOptions,
): Promise<ZoneProof> {
  const provider = providers[providerId];
  let delegation: ZoneDelegation;
  try {
    delegation = await provider.delegation(credentials as never, zone, options.providerOptions);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return {
      proven: false,
      definite: error.failure === 'not-found',
      reason: ZONE_PROOF_MESSAGES.providerUnavailable(provider.label, error.full),
    };
  }
  if (!delegation.active) {
    return {
      proven: false,
      definite: true,
      reason: ZONE_PROOF_MESSAGES.pending(zone, provider.label, delegation.status ?? 'not active'),
    };
  }
  const found = await publicNameServers(zone, options);
  if (found.servers === null) {
    return found.definite
      ? { proven: false, definite: true, reason: ZONE_PROOF_MESSAGES.undelegated(zone, provider.label) }
      : { proven: false, definite: false, reason: ZONE_PROOF_MESSAGES.dnsUnavailable(zone) };
  }
  const assigned = [...new Set(delegation.nameServers.map(normaliseName))].sort();
  const delegated = [...new Set(found.servers)].sort();
  if (assigned.length > 0 && assigned.join(' ') === delegated.join(' ')) return { proven: true };
  return {
    proven: false,
    definite: true,
    reason: ZONE_PROOF_MESSAGES.elsewhere(zone, provider.label, delegated, assigned),
  };
}
