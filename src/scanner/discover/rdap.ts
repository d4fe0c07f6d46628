import { getDomain } from 'tldts';

/** The registrable domain (public suffix list, ICANN section) of a host, if it has one. */
export function registrableDomain(host: string): string | undefined {
  return getDomain(host, { allowPrivateDomains: false }) ?? undefined;
}
