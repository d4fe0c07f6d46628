import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TXT_HOSTS, txtHosts } from '../../../src/scanner/discover/txt-names.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'tx.test';
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // Names that only the zone's TXT records name: no wordlist, no CT, no caller lists them.
  [
    apex,
    { type: 'TXT', data: `v=spf1 include:_spf.${apex} a:mail-old.${apex}/24 include:spf.dw-reg-tx.com ~all` },
  ],
  [apex, { type: 'TXT', data: `portal-verification=https://legacy.${apex}/verify` }],
  [`_spf.${apex}`, { type: 'TXT', data: 'v=spf1 ip4:192.0.2.0/24 -all' }],
  [`mail-old.${apex}`, { type: 'CNAME', data: 'mail.dw-unreg-tx.com' }],
  [`legacy.${apex}`, { type: 'CNAME', data: 'legacy.gone.dw-reg-tx.com' }],
  ['spf.dw-reg-tx.com', { type: 'TXT', data: 'v=spf1 -all' }],
  // A sending subdomain: its SPF names a relay host of the zone.
  [`news.${apex}`, { type: 'MX', data: { preference: 10, exchange: 'mx.dw-reg-tx.com' } }],
  [`news.${apex}`, { type: 'TXT', data: `v=spf1 a:relay.${apex} -all` }],
  ['mx.dw-reg-tx.com', { type: 'A', data: FIXTURE_IP }],
  [`relay.${apex}`, { type: 'CNAME', data: 'relay.dw-unreg-tx2.com' }],
];
const zone = zoneFrom({ apex, records, unregistered: ['dw-unreg-tx.com', 'dw-unreg-tx2.com'] });

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(
    apex,
    fixtures.options({ ct: false, wordlist: [], subdomains: [`news.${apex}`] }),
  );
});
afterAll(() => fixtures?.close());

const at = (name: string) => result.findings.filter((f) => f.subdomain === name);

describe('host names in TXT records', () => {
  it("follows the in-zone hosts of the apex's SPF and verification records, and finds what dangles there", () => {
    expect(at(`mail-old.${apex}`)).toMatchObject([
      {
        recordType: 'CNAME',
        status: 'claimable',
        service: 'unregistered domain dw-unreg-tx.com',
        sources: ['dns'],
      },
    ]);
    expect(at(`legacy.${apex}`)).toMatchObject([{ recordType: 'CNAME', status: 'review', sources: ['dns'] }]);
    expect(result.subdomains).toContain(`_spf.${apex}`);
    expect(at(`_spf.${apex}`)).toEqual([]);
  });

  it("follows the hosts of a subdomain's own SPF record", () => {
    expect(at(`relay.${apex}`)).toMatchObject([
      { status: 'claimable', service: 'unregistered domain dw-unreg-tx2.com', sources: ['dns'] },
    ]);
  });

  it('never takes a host outside the zone for a name of it', () => {
    expect(result.subdomains.filter((name) => !name.endsWith(apex))).toEqual([]);
  });

  it('reads SPF mechanisms, URLs and addresses, skips macros, and takes a bounded number per record', () => {
    expect(
      txtHosts(
        'v=spf1 +include:_spf.a.test a:web.a.test/24 mx:mx.a.test//64 redirect=r.a.test exists:%{i}.x.a.test include:b.test -all',
        'a.test',
      ),
    ).toEqual(['_spf.a.test', 'web.a.test', 'mx.a.test', 'r.a.test']);
    expect(txtHosts('contact=ops@mail.a.test see https://docs.a.test/x a.test', 'a.test')).toEqual([
      'mail.a.test',
      'docs.a.test',
    ]);
    const many = Array.from({ length: 30 }, (_, i) => `h${i}.a.test`).join(' ');
    expect(txtHosts(many, 'a.test')).toHaveLength(MAX_TXT_HOSTS);
  });
});
