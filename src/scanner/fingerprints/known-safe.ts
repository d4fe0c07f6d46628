import { matchesSuffix } from './match.ts';

/**
 * Services whose missing names are no takeover: a CNAME into them that ends in NXDOMAIN (or a
 * delegation to their nameservers that no longer answers) cannot be claimed by anyone else, because
 * the service hands out its names itself or verifies ownership. They are BadDNS's negative
 * signatures (`baddns/signatures/negative_*.yml`, commit 373abc9, 2026-03-22). A dangling record into
 * one of them is left unreported unless the domain itself is unregistered (then anyone can buy it).
 * Nameserver hosts of the list are also `not-vulnerable` catalogue entries (Cloudflare, Route 53,
 * UltraDNS, Akamai, Imperva), which keep a lame delegation to them at `review`.
 */
export interface KnownSafe {
  service: string;
  cname: readonly string[];
  ns: readonly string[];
  /** The negative signature it comes from. */
  source: string;
  reason: string;
}

const BADDNS =
  'https://github.com/blacklanternsecurity/baddns/blob/373abc9ba357289a5bf6784a88d27accbd21689d/baddns/signatures';

export const knownSafe: readonly KnownSafe[] = [
  {
    service: 'Imperva',
    cname: ['impervadns.net', 'incapdns.net'],
    ns: ['impervadns.net', 'incapdns.net'],
    source: `${BADDNS}/negative_imperva_cname.yml`,
    reason:
      'Imperva assigns its CNAME targets per site; a removed site name cannot be claimed by another account',
  },
  {
    service: 'Bodis',
    cname: ['bodis.com'],
    ns: [],
    source: `${BADDNS}/negative_bodis_cname.yml`,
    reason: 'a parking service: its names are its own, not handed to whoever asks',
  },
  {
    service: 'Demandware (Salesforce Commerce Cloud)',
    cname: ['demandware.net'],
    ns: [],
    source: `${BADDNS}/negative_demandware_cname.yml`,
    reason: 'Salesforce provisions demandware.net names per customer instance; none can be requested',
  },
  {
    service: 'Microsoft Lync (Skype for Business Online)',
    cname: ['online.lync.com'],
    ns: [],
    source: `${BADDNS}/negative_lync_cname.yml`,
    reason: 'Lync endpoints are Microsoft-assigned per tenant; the retired service names cannot be claimed',
  },
  {
    service: 'Akamai',
    cname: [],
    ns: ['akam.net'],
    source: `${BADDNS}/negative_akamai_ns.yml`,
    reason: 'Akamai Edge DNS verifies zone ownership before serving a zone',
  },
  {
    service: 'AWS Route 53',
    cname: [],
    ns: ['awsdns-*.com', 'awsdns-*.net', 'awsdns-*.org', 'awsdns-*.co.uk'],
    source: `${BADDNS}/negative_aws_route53_ns.yml`,
    reason:
      'Route 53 places a new hosted zone on a new nameserver set; the old set cannot be reclaimed at will',
  },
  {
    service: 'Cloudflare',
    cname: [],
    ns: ['ns.cloudflare.com'],
    source: `${BADDNS}/negative_cloudflare_ns.yml`,
    reason: 'Cloudflare assigns nameserver pairs per account and verifies the zone',
  },
  {
    service: 'UltraDNS',
    cname: [],
    ns: ['ultradns.com', 'ultradns.net', 'ultradns.org', 'ultradns.biz'],
    source: `${BADDNS}/negative_ultradns_ns.yml`,
    reason: 'UltraDNS serves zones only for verified customers',
  },
];

/** The known-safe service a CNAME target belongs to, if any. */
export function knownSafeCname(target: string): KnownSafe | undefined {
  return knownSafe.find((s) => s.cname.some((suffix) => matchesSuffix(target, suffix)));
}
