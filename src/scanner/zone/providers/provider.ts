import type { z } from 'zod';
import type { ProviderCallOptions, ProviderId, ZoneDelegation } from '../../../connectors/dns/provider.ts';
import type { ZoneRecord } from '../record.ts';

/** A DNS provider's read-only API: check a credential by listing its zones, read one zone. */
export interface DnsProvider<C> {
  id: ProviderId;
  label: string;
  credentials: z.ZodType<C>;
  /** The zones the credential can read (absolute names, lower case, no trailing dot). */
  listZones(credentials: C, options?: ProviderCallOptions): Promise<string[]>;
  /** Every record of the zone, page after page, as a stream. */
  readZone(credentials: C, zone: string, options?: ProviderCallOptions): AsyncIterable<ZoneRecord>;
  /** The name servers the provider assigned to the zone, and whether it is in service. */
  delegation(credentials: C, zone: string, options?: ProviderCallOptions): Promise<ZoneDelegation>;
}
