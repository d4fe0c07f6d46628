/**
 * One resource record of a zone, as every zone source yields it: a BIND master file, a zone
 * transfer, a DNS provider's API. Sources stream records one at a time so that a zone of
 * 100,000 records never sits in memory as one document.
 */
export interface ZoneRecord {
  /** Absolute owner name, lower case, no trailing dot: `www.example.com`, `*.example.com`. */
  name: string;
  /**
   * The record type in upper case (`CNAME`, `A`, `AAAA`, `NS`, `MX`, `TXT`, `SRV`, …). `ALIAS` is a
   * provider's alias record (Route 53 `AliasTarget`, a CNAME-like record at the apex), which the
   * engine checks as the CNAME it behaves like.
   */
  type: string;
  ttl: number;
  /**
   * The record's data in presentation form. Host names are absolute, lower case, without the
   * trailing dot: CNAME/NS/ALIAS `target.example.net`; MX `10 mx.example.net`; SRV
   * `10 5 5060 sip.example.net`; TXT the character strings joined, unquoted.
   */
  data: string;
}

/** Where a scanned name came from; a finding lists every source that revealed its name. */
export type { NameSource } from '../../model/contract.ts';
