import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SOURCES, catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { evidencePage, FIXTURE_IP, provenGrade, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import type { Page } from '../../fixtures/web-server.ts';

// Entries matched by the service's own addresses (A/AAAA records, no CNAME). Their real addresses
// must never be contacted from a test, so the catalogue under test maps them onto the fixture.
const byAddress = catalogue.filter((e) => e.ips.length > 0);
const onLoopback = catalogue.map((e) => (e.ips.length > 0 ? { ...e, ips: [FIXTURE_IP] } : e));
const apex = 'ip.test';
const records: Array<[string, FixtureRecord]> = [];
const pages = new Map<string, Page>();
for (const entry of byAddress) {
  records.push([`ip-${entry.id}.${apex}`, { type: 'A', data: FIXTURE_IP }]);
  pages.set(`ip-${entry.id}.${apex}`, evidencePage(entry));
  records.push([`ip-ok-${entry.id}.${apex}`, { type: 'A', data: FIXTURE_IP }]);
}
const zone = zoneFrom({ apex, records, pages });

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(
    apex,
    fixtures.options({
      subdomains: zone.names(),
      ct: false,
      fingerprints: { sources: CATALOGUE_SOURCES, entries: onLoopback },
      perServiceRate: 1000,
    }),
  );
});
afterAll(() => fixtures?.close());

describe.each(byAddress.map((e) => [e.id, e] as const))('%s by address', (id, entry) => {
  it('finds the unclaimed page at the service address, and not a claimed twin', () => {
    const found = result.findings.filter((f) => f.subdomain === `ip-${id}.${apex}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ recordType: 'A', target: FIXTURE_IP, service: entry.service });
    // The page at the service's address is the only evidence: no provider check proves it.
    expect(found[0]?.status).toBe(provenGrade(entry, `ip-${id}.${apex}`, FIXTURE_IP));
    expect(result.findings.filter((f) => f.subdomain === `ip-ok-${id}.${apex}`)).toEqual([]);
  });
});
