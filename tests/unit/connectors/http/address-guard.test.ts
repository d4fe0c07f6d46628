import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateReason, refusal } from '../../../../src/connectors/http/address-guard.ts';
import { probe } from '../../../../src/scanner/http/probe.ts';
import { scanDomain } from '../../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../../fixtures/scan-fixtures.ts';

const FORBIDDEN = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1'];

describe('the address guard', () => {
  it.each([
    ...FORBIDDEN,
    '::ffff:7f00:1',
    '0.0.0.0',
    '100.64.0.1',
    '100.100.100.200',
    '172.16.5.4',
    '192.168.1.1',
    'fd00:ec2::254',
    'fe80::1',
    '64:ff9b::a9fe:a9fe',
    '::ffff:169.254.169.254',
  ])('refuses %s', (address) => {
    expect(privateReason(address)).toBeDefined();
    expect(refusal(address, false)).toBeDefined();
  });

  it.each(['8.8.8.8', '185.199.108.153', '2606:4700::1111'])('lets public %s through', (address) => {
    expect(privateReason(address)).toBeUndefined();
  });

  it('an allow-list lets through exactly the listed addresses, not their other forms', () => {
    expect(refusal('127.0.0.1', ['127.0.0.1'])).toBeUndefined();
    expect(refusal('::ffff:127.0.0.1', ['127.0.0.1'])).toBeDefined();
    expect(refusal('127.0.0.2', ['127.0.0.1'])).toBeDefined();
    expect(refusal('10.0.0.1', true)).toBeUndefined();
  });
});

const apex = 's.test';
const records: Array<[string, FixtureRecord]> = [];
const targets: Record<string, FixtureRecord> = {
  lo: { type: 'A', data: '127.0.0.1' },
  ten: { type: 'A', data: '10.0.0.1' },
  meta: { type: 'A', data: '169.254.169.254' },
  v6: { type: 'AAAA', data: '::1' },
  mapped: { type: 'AAAA', data: '::ffff:127.0.0.1' },
};
for (const [label, record] of Object.entries(targets)) {
  // Through a CNAME at a catalogue service, and directly at a catalogue service's own address.
  records.push([`cname-${label}.${apex}`, { type: 'CNAME', data: `dw-${label}.github.io` }]);
  records.push([`dw-${label}.github.io`, record]);
  records.push([`direct-${label}.${apex}`, record]);
}
records.push([`redirect.${apex}`, { type: 'CNAME', data: 'dw-redirect.github.io' }]);
records.push(['dw-redirect.github.io', { type: 'A', data: FIXTURE_IP }]);
records.push([`metadata.${apex}`, { type: 'A', data: '169.254.169.254' }]);
const zone = zoneFrom({ apex, records });
const page = { status: 404, body: "There isn't a GitHub Pages site here." };

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  fixtures.web.site = (host, _scheme, path) => {
    if (host === `redirect.${apex}` && path === '/') {
      return { status: 302, headers: { location: `http://metadata.${apex}/latest/meta-data/` }, body: '' };
    }
    if (host === `big.${apex}`) return { status: 200, body: 'x'.repeat(2_000_000) };
    return page;
  };
});
afterAll(() => fixtures?.close());

describe('the scan without --allow-private', () => {
  it('never connects to loopback, private, link-local or mapped addresses, by CNAME or directly', async () => {
    const attempts: string[] = [];
    const before = { ...fixtures.web.connections };
    const result = await scanDomain(
      apex,
      fixtures.options({
        subdomains: zone.names(),
        ct: false,
        allowPrivate: false,
        cloudRanges: [{ cidr: '0.0.0.0/0', provider: 'Everywhere' }],
        onConnect: (address) => attempts.push(address),
      }),
    );
    expect(attempts).toEqual([]);
    expect(fixtures.web.connections).toEqual(before);
    expect(result.findings).toEqual([]);
    for (const label of ['lo', 'ten', 'meta']) {
      expect(
        result.errors.some((e) => e.subdomain === `cname-${label}.${apex}` && /refused/.test(e.message)),
      ).toBe(true);
    }
  });
});

describe('a probe', () => {
  const options = () => ({
    ports: { http: fixtures.web.httpPort, https: fixtures.web.httpsPort },
    allowPrivate: [FIXTURE_IP],
    timeoutMs: 2000,
    maxBodyBytes: 64 * 1024,
    maxRedirects: 3,
    resolveAddress: async () => '169.254.169.254',
  });

  it('sends the scanned name as Host and SNI to the pinned address, through a self-signed certificate', async () => {
    const result = await probe(`cname-lo.${apex}`, FIXTURE_IP, 'https', options());
    expect(result.error).toBeUndefined();
    expect(result.responses[0]?.status).toBe(404);
    expect(fixtures.web.requests).toContain(`https cname-lo.${apex} /`);
    expect(fixtures.web.sni).toContain(`cname-lo.${apex}`);
  });

  it('checks every redirect hop again and stops at a forbidden one', async () => {
    const connected: string[] = [];
    const result = await probe(`redirect.${apex}`, FIXTURE_IP, 'http', {
      ...options(),
      onConnect: (address) => connected.push(address),
    });
    expect(result.responses).toHaveLength(1);
    expect(result.error?.kind).toBe('blocked');
    expect(connected).toEqual([FIXTURE_IP]);
  });

  it('caps the body it reads', async () => {
    const result = await probe(`big.${apex}`, FIXTURE_IP, 'http', options());
    expect(result.responses[0]?.body.length).toBeLessThanOrEqual(64 * 1024);
    expect(result.responses[0]?.body.length).toBeGreaterThan(1000);
  });
});
