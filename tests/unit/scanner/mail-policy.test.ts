import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcReportDomains } from '../../../src/scanner/detect/mail.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'mp.test';
const srv = (name: string, target: string): [string, FixtureRecord] => [
  name,
  { type: 'SRV', data: { priority: 10, weight: 5, port: 5061, target } },
];
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // A DKIM selector aliased into a domain nobody registered, one into a name that is gone.
  [`selector1._domainkey.${apex}`, { type: 'CNAME', data: 'selector1-mp._domainkey.dw-unreg-dkim.com' }],
  [`s1._domainkey.${apex}`, { type: 'CNAME', data: 's1.domainkey.gone.dw-reg.com' }],
  // Benign twins: a selector with its key, one aliased to a live key.
  [`google._domainkey.${apex}`, { type: 'TXT', data: 'v=DKIM1; k=rsa; p=MIIB' }],
  [`k1._domainkey.${apex}`, { type: 'CNAME', data: 'dkim.dw-reg.com' }],
  ['dkim.dw-reg.com', { type: 'TXT', data: 'v=DKIM1; k=rsa; p=MIIB' }],
  [
    `_dmarc.${apex}`,
    {
      type: 'TXT',
      data: 'v=DMARC1; p=none; rua=mailto:dmarc@dw-unreg-dmarc.com!10m,mailto:ok@dw-reg.com; ruf=mailto:f@dw-reg.com',
    },
  ],
  ['dw-reg.com', { type: 'MX', data: { preference: 10, exchange: 'mx.dw-reg.com' } }],
  [`autodiscover.${apex}`, { type: 'CNAME', data: 'autodiscover.dw-unreg-ad.com' }],
  [`mta-sts.${apex}`, { type: 'CNAME', data: 'mta-sts.dw-reg.com' }],
  ['mta-sts.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
  // Service records: a target in a domain nobody registered, one that is gone, and a live twin.
  srv(`_sipfederationtls._tcp.${apex}`, 'sipfed.dw-unreg-srv.com'),
  srv(`_xmpp-server._tcp.${apex}`, 'xmpp.gone.dw-reg.com'),
  srv(`_caldavs._tcp.${apex}`, 'cal.dw-reg.com'),
  ['cal.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
];
const zone = zoneFrom({
  apex,
  records,
  unregistered: [
    'dw-unreg-dkim.com',
    'dw-unreg-dmarc.com',
    'dw-unreg-ad.com',
    'dw-unreg-srv.com',
    'dw-unreg-game.com',
  ],
});

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  // No wordlist and no CT: the scan must look these names up itself.
  result = await scanDomain(apex, fixtures.options({ ct: false, wordlist: [] }));
});
afterAll(() => fixtures?.close());

const at = (name: string) => result.findings.filter((f) => f.subdomain === name);

describe('mail and policy records that point away', () => {
  it('finds a DKIM selector aliased into an unregistered domain (claimable) or a gone name (review)', () => {
    expect(at(`selector1._domainkey.${apex}`)).toMatchObject([
      { recordType: 'CNAME', status: 'claimable', service: 'unregistered domain dw-unreg-dkim.com' },
    ]);
    expect(at(`s1._domainkey.${apex}`)).toMatchObject([{ recordType: 'CNAME', status: 'review' }]);
    expect(at(`google._domainkey.${apex}`)).toEqual([]);
    expect(at(`k1._domainkey.${apex}`)).toEqual([]);
  });

  it('finds a DMARC report address at an unregistered domain, and only that one', () => {
    expect(at(`_dmarc.${apex}`)).toMatchObject([
      { recordType: 'TXT', target: 'dw-unreg-dmarc.com', status: 'claimable' },
    ]);
    expect(at(`_dmarc.${apex}`)[0]?.explanation).toContain('reports');
  });

  it('finds an autodiscover alias into an unregistered domain, and leaves a live MTA-STS host alone', () => {
    expect(at(`autodiscover.${apex}`)).toMatchObject([{ status: 'claimable' }]);
    expect(at(`mta-sts.${apex}`)).toEqual([]);
    expect(result.subdomains).toContain(`mta-sts.${apex}`);
  });

  it('finds an SRV target in an unregistered domain (claimable) or gone (review), and leaves a live one alone', () => {
    expect(at(`_sipfederationtls._tcp.${apex}`)).toMatchObject([
      {
        recordType: 'SRV',
        target: 'sipfed.dw-unreg-srv.com',
        status: 'claimable',
        service: 'unregistered domain dw-unreg-srv.com',
      },
    ]);
    expect(at(`_xmpp-server._tcp.${apex}`)).toMatchObject([
      { recordType: 'SRV', target: 'xmpp.gone.dw-reg.com', status: 'review' },
    ]);
    expect(at(`_xmpp-server._tcp.${apex}`)[0]?.explanation).toContain('SRV');
    expect(at(`_caldavs._tcp.${apex}`)).toEqual([]);
    expect(result.subdomains).toContain(`_caldavs._tcp.${apex}`);
  });

  it('reads SRV targets from the zone records, for service names no list holds', async () => {
    // Only the zone's records hold this name: DNS is never asked for its SRV records.
    async function* records() {
      yield { name: `_game._udp.${apex}`, type: 'SRV', ttl: 300, data: '0 5 27015 play.dw-unreg-game.com.' };
      yield { name: `_voice._udp.${apex}`, type: 'SRV', ttl: 300, data: '0 0 0 .' };
    }
    const withZone = await scanDomain(
      apex,
      fixtures.options({ ct: false, wordlist: [], zoneRecords: records() }),
    );
    expect(withZone.findings.filter((f) => f.subdomain === `_game._udp.${apex}`)).toMatchObject([
      { recordType: 'SRV', target: 'play.dw-unreg-game.com', status: 'claimable', sources: ['zone'] },
    ]);
    expect(withZone.findings.filter((f) => f.subdomain === `_voice._udp.${apex}`)).toEqual([]);
    expect(fixtures.dns.queries.some((q) => q.name === `_game._udp.${apex}` && q.type === 'SRV')).toBe(false);
  });

  it('keeps the looked-up names that do not exist out of the list of names checked', () => {
    expect(result.subdomains).not.toContain(`selector2._domainkey.${apex}`);
    expect(result.subdomains).not.toContain(`_sip._tls.${apex}`);
  });

  it('reads report addresses from rua and ruf, without size limits, only in DMARC records', () => {
    expect(
      dmarcReportDomains('v=DMARC1; p=reject; rua=mailto:a@x.test!10m, mailto:b@y.test; ruf=mailto:c@z.test'),
    ).toEqual(['x.test', 'y.test', 'z.test']);
    expect(dmarcReportDomains('v=spf1 rua=mailto:a@x.test')).toEqual([]);
    expect(dmarcReportDomains('v=DMARC1; rua=https://x.test/r')).toEqual([]);
  });
});
