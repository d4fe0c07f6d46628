import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const signed = 'nsec.test';
const hashed = 'nsec3.test';
const secret = `k7-old-billing.${signed}`;
const nsec = (next: string, rrtypes: string[]): FixtureRecord => ({
  type: 'NSEC',
  data: { nextDomain: next, rrtypes },
});
const records: Array<[string, FixtureRecord]> = [
  [signed, { type: 'NS', data: `ns1.${signed}` }],
  [`ns1.${signed}`, { type: 'A', data: FIXTURE_IP }],
  [secret, { type: 'CNAME', data: 'dw-nsec-gone.azurewebsites.net' }],
  // The chain, in canonical order, round to the apex: it names every name, the wildcard too.
  [signed, nsec(`*.${signed}`, ['NS', 'SOA', 'NSEC'])],
  [`*.${signed}`, nsec(secret, ['TXT', 'NSEC'])],
  [`*.${signed}`, { type: 'TXT', data: 'wildcard' }],
  [secret, nsec(`ns1.${signed}`, ['CNAME', 'NSEC'])],
  [`ns1.${signed}`, nsec(signed, ['A', 'NSEC'])],
  // The same secret name in a zone without NSEC (NSEC3 or unsigned): nothing to walk.
  [hashed, { type: 'NS', data: `ns1.${hashed}` }],
  [`ns1.${hashed}`, { type: 'A', data: FIXTURE_IP }],
  [`k7-old-billing.${hashed}`, { type: 'CNAME', data: 'dw-nsec3-gone.azurewebsites.net' }],
];
const zone = zoneFrom({ apex: signed, records });

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

describe('walking an NSEC chain', () => {
  it('finds a name that no list or certificate holds, in a zone signed with NSEC', async () => {
    const result = await scanDomain(signed, fixtures.options({ ct: false }));
    expect(result.subdomains).toEqual(expect.arrayContaining([secret, `ns1.${signed}`]));
    expect(result.findings.find((f) => f.subdomain === secret)).toMatchObject({
      target: 'dw-nsec-gone.azurewebsites.net',
      status: 'claimable',
      sources: ['dns'],
    });
    expect(result.errors).toEqual([]);
  });

  it('leaves a zone without NSEC records alone', async () => {
    const result = await scanDomain(hashed, fixtures.options({ ct: false }));
    expect(result.subdomains).not.toContain(`k7-old-billing.${hashed}`);
    expect(result.findings).toEqual([]);
  });
});
