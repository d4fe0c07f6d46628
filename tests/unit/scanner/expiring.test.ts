import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reproveFinding } from '../../../src/scanner/proof/reprove.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { Finding, ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'exp.test';
const DAY = 86_400_000;
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`soon.${apex}`, { type: 'CNAME', data: 'www.dw-soon.com' }],
  ['www.dw-soon.com', { type: 'A', data: FIXTURE_IP }],
  [`later.${apex}`, { type: 'CNAME', data: 'www.dw-later.com' }],
  ['www.dw-later.com', { type: 'A', data: FIXTURE_IP }],
  [apex, { type: 'MX', data: { preference: 10, exchange: 'mx.dw-deleting.com' } }],
  ['mx.dw-deleting.com', { type: 'A', data: FIXTURE_IP }],
];
// A second zone whose wildcard aliases a host in a domain past its expiry and being deleted.
const wild = 'exp-wild.test';
records.push(
  [wild, { type: 'NS', data: `ns1.${wild}` }],
  [`ns1.${wild}`, { type: 'A', data: FIXTURE_IP }],
  [`*.${wild}`, { type: 'CNAME', data: 'www.dw-wild-lapsed.com' }],
  ['www.dw-wild-lapsed.com', { type: 'A', data: FIXTURE_IP }],
);
const zone = zoneFrom({ apex, records });

/** A registry: each domain's RDAP record, with the events and statuses a test gives it. */
const registry = new Map<string, object>([
  [
    'dw-soon.com',
    { events: [{ eventAction: 'expiration', eventDate: new Date(Date.now() + 12 * DAY).toISOString() }] },
  ],
  [
    'dw-later.com',
    { events: [{ eventAction: 'expiration', eventDate: new Date(Date.now() + 400 * DAY).toISOString() }] },
  ],
  ['dw-deleting.com', { status: ['active', 'pending delete'] }],
  [
    'dw-wild-lapsed.com',
    {
      status: ['redemption period'],
      events: [{ eventAction: 'expiration', eventDate: new Date(Date.now() - 5 * DAY).toISOString() }],
    },
  ],
]);

let fixtures: ScanFixtures;
let rdap: http.Server;
let result: ScanResult;
let rdapUrl: string;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  rdap = http.createServer((req, res) => {
    const domain = /\/domain\/(.+)$/.exec(req.url ?? '')?.[1] ?? '';
    const record = registry.get(decodeURIComponent(domain));
    res.writeHead(record ? 200 : 404, { 'content-type': 'application/rdap+json' });
    res.end(
      JSON.stringify(record ? { objectClassName: 'domain', ldhName: domain, ...record } : { errorCode: 404 }),
    );
  });
  await new Promise<void>((resolve) => rdap.listen(0, FIXTURE_IP, resolve));
  rdapUrl = `http://${FIXTURE_IP}:${(rdap.address() as AddressInfo).port}`;
  result = await scanDomain(apex, fixtures.options({ ct: false, rdapUrl, subdomains: zone.names() }));
});
afterAll(async () => {
  await fixtures?.close();
  await new Promise((resolve) => rdap?.close(resolve));
});

describe('registrations about to lapse', () => {
  it('warns about a CNAME target whose domain expires within 30 days', () => {
    expect(result.findings.filter((f) => f.subdomain === `soon.${apex}`)).toMatchObject([
      { recordType: 'CNAME', target: 'www.dw-soon.com', status: 'review', risk: 'medium' },
    ]);
    expect(result.findings.find((f) => f.subdomain === `soon.${apex}`)?.evidence.join(' ')).toMatch(
      /expires in 1[12] days/,
    );
  });

  it('calls an MX host whose domain is being deleted likely', () => {
    expect(result.findings.filter((f) => f.target === 'mx.dw-deleting.com')).toMatchObject([
      { subdomain: apex, recordType: 'MX', status: 'likely', service: 'registration of dw-deleting.com' },
    ]);
  });

  it('says nothing of a registration that runs for another year', () => {
    expect(result.findings.filter((f) => f.subdomain === `later.${apex}`)).toEqual([]);
  });
});

describe("a wildcard's target", () => {
  it('follows the same registration rule: past its expiry and being deleted, claimable at the wildcard', async () => {
    const scan = await scanDomain(wild, fixtures.options({ ct: false, rdapUrl, wordlist: ['www', 'api'] }));
    expect(scan.findings).toMatchObject([
      {
        subdomain: `*.${wild}`,
        recordType: 'CNAME',
        target: 'www.dw-wild-lapsed.com',
        service: 'registration of dw-wild-lapsed.com',
        status: 'claimable',
        proof: { check: 'rdap-lapse', answer: { name: 'dw-wild-lapsed.com', free: true } },
      },
    ]);
    expect(scan.findings[0]?.evidence.join(' ')).toMatch(
      /expired [56] days ago; registry status redemptionperiod/,
    );
  });

  it('is asked again before an alert: still lapsing it stays claimable; renewed, it is likely with no proof', async () => {
    const scan = await scanDomain(wild, fixtures.options({ ct: false, rdapUrl, wordlist: ['www', 'api'] }));
    const finding = scan.findings[0] as Finding;
    const options = fixtures.options({ rdapUrl });
    expect(await reproveFinding(finding, options)).toMatchObject({
      status: 'claimable',
      proof: { check: 'rdap-lapse' },
    });
    const lapsed = registry.get('dw-wild-lapsed.com');
    registry.set('dw-wild-lapsed.com', {
      status: ['active'],
      events: [{ eventAction: 'expiration', eventDate: new Date(Date.now() + 365 * DAY).toISOString() }],
    });
    try {
      const again = await reproveFinding(finding, options);
      expect(again).toMatchObject({ status: 'likely', proof: null });
      expect(again.evidence.at(-1)).toBe('not proven: RDAP no longer says dw-wild-lapsed.com is free');
    } finally {
      registry.set('dw-wild-lapsed.com', lapsed as object);
    }
  });
});
