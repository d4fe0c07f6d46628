import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const gone = 'wc-gone.test';
const live = 'wc-live.test';
const zoned = 'wc-zone.test';
const records: Array<[string, FixtureRecord]> = [
  [gone, { type: 'NS', data: `ns1.${gone}` }],
  [`ns1.${gone}`, { type: 'A', data: FIXTURE_IP }],
  // Every name under it aliases an Azure app that was deleted.
  [`*.${gone}`, { type: 'CNAME', data: 'dw-wc-gone.azurewebsites.net' }],
  [live, { type: 'NS', data: `ns1.${live}` }],
  [`ns1.${live}`, { type: 'A', data: FIXTURE_IP }],
  // The benign twin: the app behind the wildcard is there.
  [`*.${live}`, { type: 'CNAME', data: 'dw-wc-live.azurewebsites.net' }],
  ['dw-wc-live.azurewebsites.net', { type: 'A', data: FIXTURE_IP }],
  [zoned, { type: 'NS', data: `ns1.${zoned}` }],
  [`ns1.${zoned}`, { type: 'A', data: FIXTURE_IP }],
  [`www.${zoned}`, { type: 'A', data: FIXTURE_IP }],
  [`*.dev.${zoned}`, { type: 'CNAME', data: 'dw-wc-dev.azurewebsites.net' }],
];
const zone = zoneFrom({ apex: gone, records });

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

describe('a wildcard record that dangles', () => {
  it('is one finding at the wildcard, however many names under it are known', async () => {
    const known = Array.from({ length: 30 }, (_, i) => `app${i}.${gone}`);
    fixtures.api.crtsh.set(
      gone,
      known.map((name_value) => ({ name_value })),
    );
    const result = await scanDomain(gone, fixtures.options({ wordlist: ['www', 'api', 'dev'] }));
    expect(result.stats.wildcard).toBe(true);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({
      subdomain: `*.${gone}`,
      target: 'dw-wc-gone.azurewebsites.net',
      service: 'Azure App Service',
      status: 'claimable',
      sources: ['dns'],
    });
    expect(result.findings[0]?.explanation).toContain(`every name under ${gone}`);
    // The known names are listed as checked, each without a finding of its own.
    expect(result.subdomains).toEqual(expect.arrayContaining(known));
  });

  it('stays quiet when the target behind the wildcard is there', async () => {
    const result = await scanDomain(live, fixtures.options({ ct: false, wordlist: ['www', 'api'] }));
    expect(result.stats.wildcard).toBe(true);
    expect(result.findings).toEqual([]);
  });

  it("is found from the zone's own records too, at the wildcard's owner", async () => {
    async function* records() {
      yield { name: zoned, type: 'NS', ttl: 60, data: `ns1.${zoned}` };
      yield { name: `www.${zoned}`, type: 'A', ttl: 60, data: FIXTURE_IP };
      yield { name: `*.dev.${zoned}`, type: 'CNAME', ttl: 60, data: 'dw-wc-dev.azurewebsites.net' };
    }
    const result = await scanDomain(zoned, fixtures.options({ ct: false, zoneRecords: records() }));
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({
      subdomain: `*.dev.${zoned}`,
      target: 'dw-wc-dev.azurewebsites.net',
      status: 'claimable',
      sources: ['zone'],
    });
  });
});
