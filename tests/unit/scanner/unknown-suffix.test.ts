/**
 * A known service under an unknown suffix: services move their custom-domain targets, so a CNAME
 * into a catalogue service's registrable domain whose answer carries that service's fingerprint is
 * reported, `likely` at most, with the suffixes the references document in its evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { evidencePage, FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'suffix.test';
const frontify = catalogue.find((e) => e.id === 'frontify');
if (!frontify) throw new Error('the catalogue lost its Frontify entry');
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // Into frontify.com, but not under the documented cname.frontify.com.
  [`brand.${apex}`, { type: 'CNAME', data: 'brand.edge.frontify.com' }],
  ['brand.edge.frontify.com', { type: 'A', data: FIXTURE_IP }],
  // The same, serving its site: no finding.
  [`live.${apex}`, { type: 'CNAME', data: 'live.edge.frontify.com' }],
  ['live.edge.frontify.com', { type: 'A', data: FIXTURE_IP }],
  // The page text under a domain that is not the service's: no finding.
  [`other.${apex}`, { type: 'CNAME', data: 'brand.suffix-elsewhere.com' }],
  ['brand.suffix-elsewhere.com', { type: 'A', data: FIXTURE_IP }],
];
const zone = zoneFrom({
  apex,
  records,
  pages: new Map([
    [`brand.${apex}`, evidencePage(frontify)],
    [`other.${apex}`, evidencePage(frontify)],
  ]),
});

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(apex, fixtures.options({ ct: false, subdomains: zone.names() }));
});
afterAll(() => fixtures?.close());

describe('a known service under a suffix the references do not document', () => {
  it('is reported by its fingerprint, at its grade (Frontify, an edge case: review), naming the documented suffixes', () => {
    const found = result.findings.filter((f) => f.subdomain === `brand.${apex}`);
    expect(found).toMatchObject([
      { service: 'Frontify', status: 'review', risk: 'medium', target: 'brand.edge.frontify.com' },
    ]);
    expect(found[0]?.evidence.join(' ')).toContain('cname.frontify.com');
  });

  it('is not reported without the fingerprint, nor for the page text elsewhere', () => {
    expect(result.findings.filter((f) => f.subdomain !== `brand.${apex}`)).toEqual([]);
  });
});
