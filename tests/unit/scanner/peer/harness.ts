/**
 * The harness of the peer cases: each case is a BadDNS test (file and function) restated in our
 * data, served by the loopback fixtures, scanned by `scanDomain`, and our verdict asserted. The
 * cases of one file share one set of fixtures; each case lives under an apex of its own and names
 * targets of its own, so no case sees another's records or registrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../../src/scanner/scan.ts';
import type { FindingStatus, ScanOptions, ScanResult } from '../../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../../fixtures/catalogue-zone.ts';
import type { AxfrSettings, Behaviour, FixtureRecord } from '../../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../../fixtures/scan-fixtures.ts';
import type { Page } from '../../../fixtures/web-server.ts';

export { FIXTURE_IP };

/** A finding as the case expects it: where, what, and the status we give. */
export interface Verdict {
  subdomain: string;
  recordType?: string;
  target?: string;
  status: FindingStatus;
  /** Text the evidence must hold. */
  evidence?: string;
}

export interface PeerCase {
  /** The BadDNS test: `tests/<file>.py::<function>`. */
  from: string;
  /** What BadDNS expects, in a few words (its finding and severity, or none). */
  theirs: string;
  /** The scanned domain (its NS and the nameserver's address are added unless `bareApex`). */
  apex: string;
  records: Array<[string, FixtureRecord]>;
  /** Names given to the scan besides the apex. */
  given?: string[];
  behaviours?: Array<[string, Behaviour]>;
  /** Pages by host, or by `scheme:host` when HTTP and HTTPS differ. */
  pages?: Array<[string, Page]>;
  /** Web servers that break, by host or `scheme:host`: a reset, a stall, or garbage. */
  webFaults?: Array<[string, 'reset' | 'hang' | 'garbage']>;
  /** Registrable domains RDAP says do not exist (every other one the records name is registered). */
  unregistered?: string[];
  /** Registrable domains to call registered that the records do not show (e.g. TXT targets). */
  registered?: string[];
  /** Registered domains with RDAP answers of their own (expiry, statuses), or raw text. */
  rdap?: Array<[string, object | string]>;
  /** Zones the zone's own nameserver hands out by AXFR, with a fault if the transfer breaks. */
  axfr?: { zone: string; fault?: AxfrSettings['fault'] };
  bareApex?: boolean;
  options?: ScanOptions;
  /** Our verdict: exactly these findings (none when empty). */
  ours: Verdict[];
  /** More to assert on the result (names discovered, errors). */
  also?: (result: ScanResult, fixtures: ScanFixtures) => void;
}

function recordsOf(c: PeerCase): Array<[string, FixtureRecord]> {
  if (c.bareApex) return c.records;
  return [
    [c.apex, { type: 'NS', data: `ns1.${c.apex}` }],
    [`ns1.${c.apex}`, { type: 'A', data: FIXTURE_IP }],
    ...c.records,
  ];
}

/** Registers the cases of one BadDNS test file as one describe block. */
export function peerSuite(title: string, cases: PeerCase[]) {
  const records = cases.flatMap(recordsOf);
  const zone = zoneFrom({
    apex: cases[0]?.apex ?? 'peer.test',
    records,
    behaviours: cases.flatMap((c) => c.behaviours ?? []),
    pages: new Map(cases.flatMap((c) => c.pages ?? [])),
    unregistered: cases.flatMap((c) => c.unregistered ?? []),
  });
  let fixtures: ScanFixtures;
  beforeAll(async () => {
    fixtures = await startScanFixtures(zone);
    const faults = new Map(cases.flatMap((c) => c.webFaults ?? []));
    const site = fixtures.web.site;
    fixtures.web.site = (host, scheme, path) =>
      faults.get(`${scheme}:${host}`) ?? faults.get(host) ?? site(host, scheme, path);
    for (const c of cases) {
      for (const domain of c.registered ?? []) fixtures.api.registered.add(domain);
      for (const [domain, body] of c.rdap ?? []) fixtures.api.rdapBodies.set(domain, body);
      if (c.axfr) {
        // The zone's own nameserver (the delegated-nameserver fixture) holds the zone to hand out.
        for (const [name, record] of recordsOf(c)) fixtures.nameserver.add(name, record);
        fixtures.nameserver.axfr.zones.add(c.axfr.zone);
      }
    }
  });
  afterAll(() => fixtures?.close());

  describe(title, () => {
    it.each(cases.map((c) => [c.from, c]))('%s', async (_from, c) => {
      fixtures.nameserver.axfr.fault = c.axfr?.fault;
      const result = await scanDomain(
        c.apex,
        fixtures.options({ ct: false, subdomains: c.given ?? [], ...c.options }),
      );
      const seen = result.findings
        .map((f) => ({
          subdomain: f.subdomain,
          recordType: f.recordType,
          target: f.target,
          status: f.status,
        }))
        .sort(byPlace);
      const wanted = c.ours
        .map((v) => ({
          subdomain: v.subdomain,
          recordType: v.recordType ?? expect.any(String),
          target: v.target ?? expect.any(String),
          status: v.status,
        }))
        .sort(byPlace);
      expect(seen, `${c.from}: BadDNS expects ${c.theirs}`).toEqual(wanted);
      for (const v of c.ours) {
        if (!v.evidence) continue;
        const finding = result.findings.find(
          (f) => f.subdomain === v.subdomain && (v.target === undefined || f.target === v.target),
        );
        expect(finding?.evidence.join(' ')).toContain(v.evidence);
      }
      c.also?.(result, fixtures);
    });
  });
}

function byPlace(a: { subdomain: string; target: unknown }, b: { subdomain: string; target: unknown }) {
  return a.subdomain.localeCompare(b.subdomain) || String(a.target).localeCompare(String(b.target));
}
