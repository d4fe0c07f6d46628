import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const open = 'axfr-open.test';
const closed = 'axfr-closed.test';
const records: Array<[string, FixtureRecord]> = [];
for (const apex of [open, closed]) {
  records.push(
    [apex, { type: 'NS', data: `ns1.${apex}` }],
    [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
    [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  );
}
const zone = zoneFrom({ apex: open, records });

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  // The zone's own nameserver (at the delegated-nameserver fixture) holds both zones and hands one out.
  for (const [name, record] of records) fixtures.nameserver.add(name, record);
  fixtures.nameserver.axfr.zones.add(open);
});
afterAll(() => fixtures?.close());

describe('open zone transfer', () => {
  it('is a finding when a nameserver of the zone hands it to anyone', async () => {
    const result = await scanDomain(open, fixtures.options({ ct: false }));
    expect(result.findings).toMatchObject([
      {
        subdomain: open,
        recordType: 'NS',
        target: `ns1.${open}`,
        service: 'zone transfer (AXFR)',
        status: 'likely',
      },
    ]);
    expect(result.findings[0]?.evidence.join(' ')).toContain('handed over the whole zone');
  });

  it('is none when the nameserver refuses the transfer', async () => {
    const result = await scanDomain(closed, fixtures.options({ ct: false }));
    expect(result.findings).toEqual([]);
  });
});
