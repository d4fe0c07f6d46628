import { parse } from 'tldts';
import { inZone, isHostName } from '../dns/names.ts';

/** In-zone host names taken from one TXT record at most: a record is the zone owner's free text. */
export const MAX_TXT_HOSTS = 10;

/**
 * The in-zone host names a TXT record names: SPF's `include:`, `a:`, `mx:`, `redirect=` and
 * `exists:` hosts (a CIDR length after `/` is no part of them), and any other token of the text
 * that is a host name of the zone (a verification value, a URL, an address after `@`). SPF macros
 * (`%{i}._spf.example.com`) expand per message and name no fixed host. At most `MAX_TXT_HOSTS`, in
 * the record's order.
 */
export function txtHosts(txt: string, domain: string): string[] {
  const hosts = new Set<string>();
  for (const token of txt.toLowerCase().split(/[\s"'=;,:/@()<>[\]{}|!%+?~]+/)) {
    const name = token.replace(/\.$/, '');
    if (name === domain || !isHostName(name) || !inZone(name, domain)) continue;
    hosts.add(name);
    if (hosts.size >= MAX_TXT_HOSTS) break;
  }
  return [...hosts];
}

/**
 * The host names outside the zone that a TXT record names in its free text (not SPF or DMARC,
 * which have checks of their own): a verification value, a URL, an address after `@`. Only names
 * under a real public suffix, at most `MAX_TXT_HOSTS`.
 */
export function outsideTxtHosts(txt: string, domain: string): string[] {
  if (/^\s*v=(spf1|dmarc1)\b/i.test(txt)) return [];
  const hosts = new Set<string>();
  for (const token of txt.toLowerCase().split(/[\s"'=;,:/@()<>[\]{}|!%+?~]+/)) {
    const name = token.replace(/\.$/, '');
    if (!isHostName(name) || inZone(name, domain) || !parse(name).isIcann) continue;
    hosts.add(name);
    if (hosts.size >= MAX_TXT_HOSTS) break;
  }
  return [...hosts];
}
