import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spfTargets } from '../../../src/scanner/detect/mail.ts';
import { fromCertSpotter, fromCrtSh, normaliseCtNames } from '../../../src/scanner/discover/ct.ts';
import { builtInWordlist } from '../../../src/scanner/discover/wordlist.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { evidencePage, FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'disc.test';
const records: Array<[string, FixtureRecord]> = [
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`ct-only.${apex}`, { type: 'CNAME', data: 'dw-ct.azurewebsites.net' }],
  [`spotted.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`mail.${apex}`, { type: 'A', data: FIXTURE_IP }],
  // A wildcard zone whose every name shows a service's "unclaimed" page.
  [`*.wild.test`, { type: 'A', data: FIXTURE_IP }],
  [`*.wildcname.test`, { type: 'CNAME', data: 'www.dw-reg.com' }],
  ['www.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
  // A service's own host names, showing its "unclaimed" page: the service's business, not a finding.
  ['dw-own.github.io', { type: 'CNAME', data: 'dw-own-target.github.io' }],
  ['dw-own-target.github.io', { type: 'A', data: FIXTURE_IP }],
];
const zone = zoneFrom({ apex, records });
const github = catalogue.find((e) => e.id === 'github-pages');

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  fixtures.api.crtsh.set(apex, [
    { name_value: `ct-only.${apex}\n*.${apex}` },
    { name_value: `ops@${apex}` },
    { name_value: `www.${apex}\nwww.other.test` },
    { name_value: `CT-ONLY.${apex}.` },
  ]);
  fixtures.api.certspotter.set(
    apex,
    ['1', '2', '3', '4', '5'].map((id) => ({
      id,
      dns_names: [id === '5' ? `spotted.${apex}` : `www.${apex}`],
    })),
  );
  if (github) fixtures.web.site = () => evidencePage(github);
});
afterAll(() => fixtures?.close());

describe('certificate transparency', () => {
  it('keeps in-zone host names: no wildcards, addresses, other zones or duplicates', () => {
    expect(
      normaliseCtNames(
        ['*.a.x.test\nb.x.test', 'me@x.test', 'x.test', 'evil-x.test', 'B.X.TEST.', 'a b.x.test'],
        'x.test',
      ).sort(),
    ).toEqual(['a.x.test', 'b.x.test', 'x.test']);
  });

  it('retries crt.sh when it fails, and pages through Cert Spotter', async () => {
    fixtures.api.flaky = 1;
    try {
      const crt = await fromCrtSh(`${fixtures.api.url}/crtsh`, apex, { timeoutMs: 2000 });
      expect(crt.sort()).toEqual([apex, `ct-only.${apex}`, `www.${apex}`].sort());
      const spotter = await fromCertSpotter(`${fixtures.api.url}/certspotter`, apex, { timeoutMs: 2000 });
      expect(spotter.sort()).toEqual([`spotted.${apex}`, `www.${apex}`]);
      expect(fixtures.api.requests.filter((r) => r.includes('after=')).length).toBeGreaterThanOrEqual(2);
    } finally {
      fixtures.api.flaky = 0;
    }
  });
});

describe('an oversized CT answer', () => {
  it('is refused rather than read into memory', async () => {
    await expect(
      fromCrtSh(`${fixtures.api.url}/crtsh`, apex, { timeoutMs: 2000, maxBytes: 16 }),
    ).rejects.toThrow(/larger than/);
  });
});

describe('discovery in a scan', () => {
  it('checks names from CT, the wordlist and the MX/NS targets', async () => {
    fixtures.dns.add(apex, { type: 'MX', data: { preference: 10, exchange: `mail.${apex}` } });
    const result = await scanDomain(apex, fixtures.options({ wordlist: ['www', 'nope', 'api'] }));
    expect(result.subdomains).toEqual(
      expect.arrayContaining([`ct-only.${apex}`, `spotted.${apex}`, `www.${apex}`, `mail.${apex}`]),
    );
    expect(result.subdomains).not.toContain(`nope.${apex}`);
    expect(result.findings.map((f) => f.subdomain)).toContain(`ct-only.${apex}`);
  });

  it('--no-discovery checks the apex and the given names only', async () => {
    const ctQueries = () => fixtures.api.requests.filter((r) => r.includes('q=')).length;
    const before = ctQueries();
    const result = await scanDomain(
      apex,
      fixtures.options({ discovery: false, subdomains: [`www.${apex}`], wordlist: ['spotted'] }),
    );
    expect(result.subdomains.sort()).toEqual([apex, `www.${apex}`]);
    expect(ctQueries()).toBe(before);
  });

  it('a wildcard zone does not flood the scan and yields no false finding', async () => {
    for (const domain of ['wild.test', 'wildcname.test']) {
      const result = await scanDomain(
        domain,
        fixtures.options({ ct: false, wordlist: builtInWordlist().slice(0, 300) }),
      );
      expect(result.stats.wildcard).toBe(true);
      expect(result.findings).toEqual([]);
      expect(result.subdomains.length).toBeLessThan(3);
    }
  });

  it('leaves a service’s own host names alone', async () => {
    const result = await scanDomain(
      'github.io',
      fixtures.options({ ct: false, subdomains: ['dw-own.github.io'] }),
    );
    expect(result.subdomains).toContain('dw-own.github.io');
    expect(result.findings).toEqual([]);
  });

  it('ships a wordlist of a few thousand labels', () => {
    const words = builtInWordlist();
    expect(words.length).toBeGreaterThan(2000);
    expect(new Set(words).size).toBe(words.length);
  });

  it('reads include and redirect targets from SPF records', () => {
    expect(
      spfTargets('v=spf1 include:_spf.a.test ~include:b.test redirect=c.test include:%{d}.x -all'),
    ).toEqual(['_spf.a.test', 'b.test', 'c.test']);
    expect(spfTargets('google-site-verification=abc')).toEqual([]);
  });
});
