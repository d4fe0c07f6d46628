import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { Finding, ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'k.test';
const SILENT_IP = '127.0.0.2';
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // (c) a CNAME into a domain nobody registered, and its twin into a registered one.
  [`c-cname.${apex}`, { type: 'CNAME', data: 'www.dw-unreg-cname.com' }],
  [`c-cname-ok.${apex}`, { type: 'CNAME', data: 'www.dw-reg.com' }],
  ['www.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
  // RDAP 404 alone is not enough: a gateway without data for a TLD says 404 too, DNS must agree.
  [`c-rdap-gap.${apex}`, { type: 'CNAME', data: 'www.dw-rdapgap.com' }],
  ['dw-rdapgap.com', { type: 'NS', data: 'ns.dw-reg.com' }],
  // (c) an NS delegation into an unregistered domain.
  [`c-ns.${apex}`, { type: 'NS', data: 'ns1.dw-unreg-ns.net' }],
  // (d) a lame delegation to a DNS host outside the catalogue: review, not claimable.
  [`d-unknown.${apex}`, { type: 'NS', data: 'ns.dw-reg.com' }],
  ['ns.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
  // (d) the same, where only the zone's own nameserver gives the delegation away.
  [`d-referral.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // (e) MX into an unregistered domain, MX to a live host, SPF includes.
  [apex, { type: 'MX', data: { preference: 10, exchange: 'mx.dw-unreg-mx.com' } }],
  [apex, { type: 'MX', data: { preference: 20, exchange: 'mx.dw-reg.com' } }],
  ['mx.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
  [
    apex,
    {
      type: 'TXT',
      data: 'v=spf1 include:_spf.dw-unreg-spf.com include:_spf.dw-reg.com include:gone.dw-reg.com ~all',
    },
  ],
  ['_spf.dw-reg.com', { type: 'TXT', data: 'v=spf1 -all' }],
  // (e) on a subdomain: a sending domain's SPF and MX.
  [`bounce.${apex}`, { type: 'TXT', data: 'v=spf1 include:spf.dw-unreg-esp.com -all' }],
  [`bounce.${apex}`, { type: 'MX', data: { preference: 10, exchange: 'feedback.dw-unreg-esp.com' } }],
  // (f) an address in a cloud range where nothing answers, and its twin that serves.
  [`f-silent.${apex}`, { type: 'A', data: SILENT_IP }],
  [`f-live.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // A CNAME to a missing name in a registered domain outside any service: stale, review.
  [`g-dangling.${apex}`, { type: 'CNAME', data: 'gone.dw-reg.com' }],
  // Resolver failures on the way: never NXDOMAIN, never a finding.
  [`t-timeout.${apex}`, { type: 'CNAME', data: 'dw-t.azurewebsites.net' }],
  [`t-servfail.${apex}`, { type: 'CNAME', data: 'dw-s.azurewebsites.net' }],
  [`t-servfail-unreg.${apex}`, { type: 'CNAME', data: 'x.dw-unreg-failing.com' }],
  [`t-refused.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // A name only a CNAME target reveals.
  [`x-alias.${apex}`, { type: 'CNAME', data: `hidden.${apex}` }],
  [`hidden.${apex}`, { type: 'CNAME', data: 'dw-hidden.azurewebsites.net' }],
  // A candidate that stops holding before validation.
  [`flap.${apex}`, { type: 'CNAME', data: 'dw-flap.azurewebsites.net' }],
];

const zone = zoneFrom({
  apex,
  records,
  behaviours: [
    [`c-ns.${apex}`, 'servfail'],
    [`d-unknown.${apex}`, 'servfail'],
    [`d-referral.${apex}`, 'servfail'],
    ['dw-t.azurewebsites.net', 'timeout'],
    ['dw-s.azurewebsites.net', 'servfail'],
    ['x.dw-unreg-failing.com', 'servfail'],
    [`t-refused.${apex}`, 'refused'],
  ],
  referrals: [[`d-referral.${apex}`, { type: 'NS', data: 'ns.dw-reg.com' }]],
  unregistered: [
    'dw-unreg-esp.com',
    'dw-rdapgap.com',
    'dw-unreg-cname.com',
    'dw-unreg-ns.net',
    'dw-unreg-mx.com',
    'dw-unreg-failing.com',
  ],
});

let fixtures: ScanFixtures;
let result: ScanResult;
const given = zone.names().filter((n) => n !== `hidden.${apex}`);

const at = (subdomain: string, target?: string) =>
  result.findings.filter((f) => f.subdomain === subdomain && (target === undefined || f.target === target));

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(
    apex,
    fixtures.options({
      subdomains: given,
      ct: false,
      allowPrivate: [FIXTURE_IP, SILENT_IP],
      cloudRanges: [{ cidr: '127.0.0.0/24', provider: 'Fixture Cloud' }],
      onProgress: (event) => {
        if (event.phase === 'validate' && event.done === 0) {
          fixtures.dns.add('dw-flap.azurewebsites.net', { type: 'A', data: FIXTURE_IP });
        }
      },
    }),
  );
});
afterAll(() => fixtures?.close());

function only(findings: Finding[]) {
  expect(findings).toHaveLength(1);
  return findings[0] as Finding;
}

describe('(c) records into unregistered domains', () => {
  it('a CNAME into an unregistered domain is claimable, with the RDAP evidence', () => {
    const finding = only(at(`c-cname.${apex}`));
    expect(finding).toMatchObject({ recordType: 'CNAME', status: 'claimable', risk: 'high' });
    expect(finding.evidence.join(' ')).toContain('dw-unreg-cname.com is not registered');
    expect(at(`c-cname-ok.${apex}`)).toEqual([]);
  });

  it('RDAP 404 for a domain that DNS shows registered is not claimable', () => {
    expect(only(at(`c-rdap-gap.${apex}`))).toMatchObject({ status: 'review', target: 'www.dw-rdapgap.com' });
  });

  it('an NS delegation into an unregistered domain is claimable', () => {
    expect(only(at(`c-ns.${apex}`))).toMatchObject({ recordType: 'NS', status: 'claimable' });
  });
});

describe('(d) lame delegations', () => {
  it('a host outside the catalogue is only worth a review', () => {
    const finding = only(at(`d-unknown.${apex}`));
    expect(finding).toMatchObject({ recordType: 'NS', status: 'review', service: 'unknown DNS host' });
    expect(finding.evidence.join(' ')).toContain('REFUSED');
  });

  it('finds the delegation at the zone’s own nameserver when the resolver will not give it', () => {
    const finding = only(at(`d-referral.${apex}`));
    expect(finding).toMatchObject({ recordType: 'NS', target: 'ns.dw-reg.com' });
    expect(finding.evidence[0]).toContain(`nameserver ns1.${apex}`);
  });
});

describe('(e) mail', () => {
  it('an MX host in an unregistered domain is claimable; a live one is not reported', () => {
    expect(only(at(apex, 'mx.dw-unreg-mx.com'))).toMatchObject({ recordType: 'MX', status: 'claimable' });
    expect(at(apex, 'mx.dw-reg.com')).toEqual([]);
  });

  it('checks the mail records of subdomains too', () => {
    expect(only(at(`bounce.${apex}`, 'spf.dw-unreg-esp.com'))).toMatchObject({
      recordType: 'TXT',
      status: 'claimable',
    });
    expect(only(at(`bounce.${apex}`, 'feedback.dw-unreg-esp.com'))).toMatchObject({
      recordType: 'MX',
      status: 'claimable',
    });
  });

  it('an SPF include of an unregistered domain is claimable; a missing one in a registered domain is review', () => {
    expect(only(at(apex, '_spf.dw-unreg-spf.com'))).toMatchObject({ recordType: 'TXT', status: 'claimable' });
    expect(only(at(apex, 'gone.dw-reg.com'))).toMatchObject({ recordType: 'TXT', status: 'review' });
    expect(at(apex, '_spf.dw-reg.com')).toEqual([]);
  });
});

describe('(f) silent cloud addresses', () => {
  it('is review only, never claimable, and a serving address is not reported', () => {
    expect(only(at(`f-silent.${apex}`))).toMatchObject({ recordType: 'A', status: 'review', risk: 'low' });
    expect(at(`f-live.${apex}`)).toEqual([]);
  });
});

describe('dangling CNAMEs and resolver failures', () => {
  it('a CNAME to a missing name outside any service is a review finding', () => {
    expect(only(at(`g-dangling.${apex}`))).toMatchObject({ status: 'review', target: 'gone.dw-reg.com' });
  });

  it('a timeout or SERVFAIL never yields an NXDOMAIN finding, even towards an unregistered domain', () => {
    for (const name of ['t-timeout', 't-servfail', 't-servfail-unreg', 't-refused']) {
      expect(at(`${name}.${apex}`)).toEqual([]);
      expect(result.errors.some((e) => e.subdomain === `${name}.${apex}`)).toBe(true);
    }
    expect(result.errors.find((e) => e.subdomain === `t-timeout.${apex}`)?.message).toContain('timeout');
  });
});

describe('discovery and validation', () => {
  it('follows in-zone CNAME targets to names nobody listed', () => {
    expect(result.subdomains).toContain(`hidden.${apex}`);
    expect(only(at(`hidden.${apex}`)).status).toBe('claimable');
  });

  it('drops a candidate whose evidence does not hold a second time, and counts it', () => {
    expect(at(`flap.${apex}`)).toEqual([]);
    expect(result.stats.filtered).toBeGreaterThanOrEqual(1);
  });

  it('gives every finding its explanation, proof and fix', () => {
    expect(result.findings.length).toBeGreaterThan(5);
    for (const finding of result.findings) {
      expect(finding.explanation.length).toBeGreaterThan(30);
      expect(finding.proofOfConcept.length).toBeGreaterThan(10);
      expect(finding.remediation.length).toBeGreaterThan(10);
    }
  });

  it('without validation nothing is called claimable', async () => {
    const unvalidated = await scanDomain(
      apex,
      fixtures.options({ subdomains: [`c-cname.${apex}`], discovery: false, validation: false }),
    );
    const finding = unvalidated.findings.find((f) => f.subdomain === `c-cname.${apex}`);
    expect(finding?.status).toBe('likely');
  });
});

describe('a scan that cannot run', () => {
  it('fails for a domain that does not exist', async () => {
    await expect(scanDomain('nowhere.test', fixtures.options({ ct: false }))).rejects.toThrow(
      /does not exist/,
    );
  });

  it('fails when the resolvers do not answer, instead of reporting an empty zone', async () => {
    fixtures.dns.behaviours.set('silent.test', 'timeout');
    await expect(
      scanDomain('silent.test', fixtures.options({ ct: false, timeoutMs: 200, dnsTries: 1 })),
    ).rejects.toThrow(/give no answer/);
  });
});
