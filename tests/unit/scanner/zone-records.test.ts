import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanOptions } from '../../../src/scanner/types.ts';
import type { ZoneRecord } from '../../../src/scanner/zone/record.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'zr.test';
const hidden = `k7-billing-old.${apex}`;
const S3_WEBSITE = 's3-website-us-east-1.amazonaws.com';
const NO_SUCH_BUCKET = {
  status: 404,
  headers: {},
  body: '<html><body><h1>404 Not Found</h1><ul><li>Code: NoSuchBucket</li><li>Message: The specified bucket does not exist</li></ul></body></html>',
};
const BUCKET = { status: 200, headers: {}, body: '<html><body>our static site</body></html>' };

/** The zone as DNS serves it: an ALIAS is flattened to the addresses of its target. */
const live: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [apex, { type: 'A', data: FIXTURE_IP }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // A name no wordlist holds and no certificate ever named.
  [hidden, { type: 'CNAME', data: 'dw-zone-gone.azurewebsites.net' }],
  [`assets.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`static.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [S3_WEBSITE, { type: 'A', data: FIXTURE_IP }],
  // A delegation inside the zone whose nameserver no longer holds it.
  [`lab.${apex}`, { type: 'NS', data: 'ns.dw-zr-host.com' }],
  ['ns.dw-zr-host.com', { type: 'A', data: FIXTURE_IP }],
  [`news.${apex}`, { type: 'MX', data: { preference: 10, exchange: 'mx.dw-zr-unreg.com' } }],
  [`news.${apex}`, { type: 'TXT', data: 'v=spf1 include:_spf.dw-zr-unreg-spf.com -all' }],
  [`old.${apex}`, { type: 'CNAME', data: `gone.${apex}` }],
  ['*.dw-zr-stream.com', { type: 'A', data: FIXTURE_IP }],
];

/** The zone as its own records say it; `ALIAS` is a Route 53 alias, which DNS never shows. */
const zoneRecords: ZoneRecord[] = [
  { name: apex, type: 'SOA', ttl: 3600, data: `ns1.${apex} hostmaster.${apex} 1 3600 600 86400 60` },
  { name: apex, type: 'NS', ttl: 3600, data: `ns1.${apex}` },
  { name: apex, type: 'A', ttl: 300, data: FIXTURE_IP },
  { name: `ns1.${apex}`, type: 'A', ttl: 300, data: FIXTURE_IP },
  { name: `www.${apex}`, type: 'A', ttl: 300, data: FIXTURE_IP },
  { name: hidden, type: 'CNAME', ttl: 300, data: 'dw-zone-gone.azurewebsites.net' },
  { name: `assets.${apex}`, type: 'ALIAS', ttl: 60, data: S3_WEBSITE },
  { name: `static.${apex}`, type: 'ALIAS', ttl: 60, data: S3_WEBSITE },
  { name: `lab.${apex}`, type: 'NS', ttl: 3600, data: 'ns.dw-zr-host.com' },
  { name: `news.${apex}`, type: 'MX', ttl: 300, data: '10 mx.dw-zr-unreg.com' },
  { name: `news.${apex}`, type: 'TXT', ttl: 300, data: 'v=spf1 include:_spf.dw-zr-unreg-spf.com -all' },
  { name: `old.${apex}`, type: 'CNAME', ttl: 300, data: `gone.${apex}` },
];

const zone = zoneFrom({
  apex,
  records: live,
  behaviours: [[`lab.${apex}`, 'servfail']],
  pages: new Map([
    [`assets.${apex}`, NO_SUCH_BUCKET],
    [`static.${apex}`, BUCKET],
  ]),
  unregistered: ['dw-zr-unreg.com', 'dw-zr-unreg-spf.com'],
});

async function* stream(records: readonly ZoneRecord[]) {
  for (const record of records) yield record;
}

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(async () => {
  await fixtures?.close();
});

const scan = (extra: ScanOptions) =>
  scanDomain(apex, fixtures.options({ ct: false, wordlist: ['www', 'static'], ...extra }));

describe('zone records as a source of names', () => {
  it('finds a record that neither CT nor the wordlist holds only when the zone is given', async () => {
    const without = await scan({});
    expect(without.subdomains).not.toContain(hidden);
    expect(without.findings.filter((f) => f.subdomain === hidden)).toEqual([]);

    const withZone = await scan({ zoneRecords: stream(zoneRecords) });
    expect(withZone.subdomains).toContain(hidden);
    expect(withZone.findings.find((f) => f.subdomain === hidden)).toMatchObject({
      recordType: 'CNAME',
      target: 'dw-zone-gone.azurewebsites.net',
      service: 'Azure App Service',
      status: 'claimable',
      sources: ['zone'],
    });
  });

  it('checks an ALIAS to a deleted S3 website bucket as a CNAME, and stays quiet for a live bucket', async () => {
    const result = await scan({ zoneRecords: stream(zoneRecords) });
    const assets = result.findings.filter((f) => f.subdomain === `assets.${apex}`);
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({ service: 'AWS S3', status: 'claimable', target: S3_WEBSITE });
    expect(assets[0]?.evidence[0]).toContain(`ALIAS ${S3_WEBSITE}`);
    expect(result.findings.filter((f) => f.subdomain === `static.${apex}`)).toEqual([]);
    // Found by the wordlist and the zone alike: both are named.
    expect(result.subdomains).toContain(`static.${apex}`);
  });

  it('checks delegations, MX and SPF records from the zone data, and the in-zone names they point at', async () => {
    const result = await scan({ zoneRecords: stream(zoneRecords) });
    expect(result.findings.find((f) => f.subdomain === `lab.${apex}`)).toMatchObject({
      recordType: 'NS',
      target: 'ns.dw-zr-host.com',
      status: 'review',
      sources: ['zone'],
    });
    const news = result.findings.filter((f) => f.subdomain === `news.${apex}`);
    expect(news.map((f) => [f.recordType, f.target, f.status]).sort()).toEqual([
      ['MX', 'mx.dw-zr-unreg.com', 'claimable'],
      ['TXT', '_spf.dw-zr-unreg-spf.com', 'claimable'],
    ]);
    // The CNAME target inside the zone is a name of the scan too.
    expect(result.subdomains).toContain(`gone.${apex}`);
  });

  it('asks DNS nothing the zone already answered', async () => {
    fixtures.dns.queries.length = 0;
    await scan({ zoneRecords: stream(zoneRecords), wordlist: [] });
    const asked = (name: string) => fixtures.dns.queries.filter((q) => q.name.toLowerCase() === name);
    // Addresses, a CNAME and the mail records were in the zone.
    expect(asked(`www.${apex}`)).toEqual([]);
    expect(asked(`news.${apex}`)).toEqual([]);
    expect(asked(hidden).map((q) => q.type)).not.toContain('CNAME');
    // The target of the zone's CNAME is out of the zone: DNS is asked for it.
    expect(asked('dw-zone-gone.azurewebsites.net').length).toBeGreaterThan(0);
  });

  it('reads the zone as a stream, only as fast as names are checked', async () => {
    const count = 1500;
    let pulled = 0;
    let checked = 0;
    let ahead = 0;
    async function* big() {
      for (let i = 0; i < count; i++) {
        pulled++;
        ahead = Math.max(ahead, pulled - checked);
        // Each target is asked of DNS (slowed down), so checking takes longer than reading.
        yield { name: `h${i}.${apex}`, type: 'CNAME', ttl: 60, data: `t${i}.dw-zr-stream.com` };
      }
    }
    const concurrency = 8;
    fixtures.dns.delayMs = 1;
    const result = await scan({
      zoneRecords: big(),
      wordlist: [],
      concurrency,
      maxNames: count + 10,
      onProgress: (event) => {
        if (event.phase === 'resolve') checked = event.done;
      },
    });
    fixtures.dns.delayMs = 0;
    expect(result.subdomains.filter((n) => /^h\d+\./.test(n))).toHaveLength(count);
    // The backlog is bounded by the queue (4 per worker) and the names in flight, not by the zone.
    expect(ahead).toBeLessThanOrEqual(concurrency * 5 + 2);
  });

  it('reports malformed zone records as errors and scans the rest', async () => {
    const records = [
      { name: `bad.${apex}`, type: 'CNAME', ttl: 60, data: 'http://x/' },
      { name: 42, type: 'A' } as unknown as ZoneRecord,
      ...zoneRecords,
    ];
    const result = await scan({ zoneRecords: stream(records) });
    expect(result.errors.some((e) => /zone record: 2 names/.test(e.message))).toBe(true);
    expect(result.subdomains).toContain(hidden);
  });
});
