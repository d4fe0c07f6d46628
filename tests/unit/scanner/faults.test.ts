/**
 * No nameserver, web server or registry can break a scan: a server that resets, one that stalls
 * past the timeout and one that sends garbage, at every kind of question the scan asks (resolver,
 * delegated nameserver, HTTP and HTTPS probes, RDAP; zone transfers in peer/zonetransfer.test.ts),
 * each make that check's error or nothing, never a failed scan, never a finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'faults.test';
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // Resolver faults.
  [`dns-garbage.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`dns-stall.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // Web faults at a catalogue service, whose page the scan must read.
  [`web-reset.${apex}`, { type: 'CNAME', data: 'reset.bigcartel.com' }],
  [`web-garbage.${apex}`, { type: 'CNAME', data: 'garbage.bigcartel.com' }],
  [`web-stall.${apex}`, { type: 'CNAME', data: 'stall.bigcartel.com' }],
  ['reset.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
  ['garbage.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
  ['stall.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
  // Delegated nameserver faults: the resolver fails, the delegation's server answers garbage or nothing.
  [`ns-garbage.${apex}`, { type: 'NS', data: 'ns.faults-host.com' }],
  [`ns-stall.${apex}`, { type: 'NS', data: 'ns.faults-host.com' }],
  ['ns.faults-host.com', { type: 'A', data: FIXTURE_IP }],
  // A registry that answers garbage.
  [`rdap-garbage.${apex}`, { type: 'CNAME', data: 'gone.faults-rdap.com' }],
  ['faults-rdap.com', { type: 'NS', data: 'ns.faults-host.com' }],
];

const zone = zoneFrom({
  apex,
  records,
  behaviours: [
    [`dns-garbage.${apex}`, 'garbage'],
    [`dns-stall.${apex}`, 'timeout'],
    [`ns-garbage.${apex}`, 'servfail'],
    [`ns-stall.${apex}`, 'servfail'],
  ],
});

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  const site = fixtures.web.site;
  fixtures.web.site = (host, scheme, path) => {
    if (host === `web-reset.${apex}`) return 'reset';
    if (host === `web-garbage.${apex}`) return 'garbage';
    if (host === `web-stall.${apex}`) return 'hang';
    return site(host, scheme, path);
  };
  fixtures.nameserver.refuseAllExcept?.add(`ns-garbage.${apex}`).add(`ns-stall.${apex}`);
  fixtures.nameserver.add(`ns-garbage.${apex}`, { type: 'SOA', data: 'ns.faults-host.com' });
  fixtures.nameserver.add(`ns-stall.${apex}`, { type: 'SOA', data: 'ns.faults-host.com' });
  fixtures.nameserver.behaviours.set(`ns-garbage.${apex}`, 'garbage');
  fixtures.nameserver.behaviours.set(`ns-stall.${apex}`, 'timeout');
  fixtures.api.rdapBodies.set('faults-rdap.com', '{"objectClassName": "domain", "events": [garbage');
  result = await scanDomain(
    apex,
    fixtures.options({
      ct: false,
      subdomains: zone.names(),
      timeoutMs: 400,
      dnsTries: 1,
      httpTimeoutMs: 800,
      validationDelayMs: 0,
    }),
  );
}, 60_000);
afterAll(() => fixtures?.close());

const at = (name: string) => result.findings.filter((f) => f.subdomain === `${name}.${apex}`);

describe('faults are errors of their check, never the end of the scan', () => {
  it('the scan completes and every name is checked or has its error', () => {
    for (const name of zone.names().filter((n) => !n.startsWith('ns1.')))
      expect(result.subdomains.includes(name) || result.errors.some((e) => e.subdomain === name), name).toBe(
        true,
      );
  });

  it('a resolver answering garbage or nothing: the name’s error, no finding, not checked', () => {
    for (const name of ['dns-garbage', 'dns-stall']) {
      expect(at(name)).toEqual([]);
      expect(result.errors.some((e) => e.subdomain === `${name}.${apex}`)).toBe(true);
      expect(result.subdomains).not.toContain(`${name}.${apex}`);
    }
  });

  it('a web server that resets, stalls or sends garbage: the name’s error, no finding, not checked', () => {
    for (const name of ['web-reset', 'web-garbage', 'web-stall']) {
      expect(at(name)).toEqual([]);
      expect(result.errors.some((e) => e.subdomain === `${name}.${apex}`)).toBe(true);
      expect(result.subdomains).not.toContain(`${name}.${apex}`);
    }
  });

  it('a delegated nameserver that sends garbage or nothing: silence proves nothing, no finding', () => {
    for (const name of ['ns-garbage', 'ns-stall']) expect(at(name)).toEqual([]);
  });

  it('a registry answering garbage: the domain counts as registered, its expiry unknown', () => {
    expect(at('rdap-garbage')).toMatchObject([{ status: 'review', target: 'gone.faults-rdap.com' }]);
  });
});
