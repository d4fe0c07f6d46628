import { hostName } from '../presentation.ts';

/**
 * A host name in a provider's record data: `@` is the apex, a trailing dot marks an absolute name,
 * and a name with a dot but none at the end is taken as absolute too, as the APIs hand back their
 * own and their users' names both ways; a single label is relative to the zone.
 */
export function providerHost(value: string, zone: string) {
  if (value === '@' || value === '') return zone;
  if (value.endsWith('.') || value.includes('.')) return hostName(value);
  return `${hostName(value)}.${zone}`;
}

/** An owner name given relative to the zone (`@`, `www`), as DigitalOcean gives them. */
export function ownerName(name: string, zone: string) {
  return name === '@' || name === '' ? zone : `${hostName(name)}.${zone}`;
}

/** A zone name as the providers list them, in `ZoneRecord` form. */
export const zoneName = hostName;
