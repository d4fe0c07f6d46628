import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeFor } from '../../../src/scanner/detect/grade.ts';
import { registrableDomain } from '../../../src/scanner/discover/rdap.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import type { Entry } from '../../../src/scanner/fingerprints/schema.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import {
  evidencePage,
  FIXTURE_IP,
  provenGrade,
  sampleHost,
  zoneFrom,
} from '../../fixtures/catalogue-zone.ts';
import type { Behaviour, FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import type { Page } from '../../fixtures/web-server.ts';

const apex = 'sr.test';
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
];
const behaviours: Array<[string, Behaviour]> = [];
const pages = new Map<string, Page>();
const a = (name: string) => records.push([name, { type: 'A', data: FIXTURE_IP }]);

// Every vulnerable fingerprint at once: a page that says all of it still proves nothing for a
// service that verifies ownership.
const everyClaim = catalogue
  .filter((e) => e.status === 'vulnerable' && e.http)
  .map((e) => [...(e.http?.body ?? []), ...(e.http?.anyBody ?? [])].join(' '))
  .join(' ');

/** The scanned name (or, for MX entries, the apex) where each entry's case lives. */
const caseName = new Map<string, string>();
function addCase(entry: Entry, label: string) {
  const name = `${label}-${entry.id}.${apex}`;
  if (entry.dns === 'resolves' && entry.cname[0]) {
    const target = sampleHost('dw-gone', entry.cname[0]);
    records.push([name, { type: 'CNAME', data: target }]);
    a(target);
    pages.set(name, evidencePage(entry, everyClaim));
  } else if (entry.dns === 'nxdomain' && entry.cname[0]) {
    records.push([name, { type: 'CNAME', data: sampleHost('dw-gone', entry.cname[0]) }]);
  } else if (entry.dns === 'nxdomain' && entry.mx[0]) {
    records.push([
      apex,
      { type: 'MX', data: { preference: 10, exchange: sampleHost(`dw-${entry.id}`, entry.mx[0]) } },
    ]);
    caseName.set(entry.id, apex);
    return;
  } else if (entry.dns === 'zone-missing' && entry.ns[0]) {
    const server = sampleHost('dw-ns', entry.ns[0]);
    a(server);
    records.push([name, { type: 'NS', data: server }]);
    behaviours.push([name, 'servfail']);
  } else return;
  caseName.set(entry.id, name);
}

const quiet = catalogue.filter((e) => e.status === 'not-vulnerable');
const dnsHosts = catalogue.filter((e) => e.dns === 'zone-missing' && e.status !== 'not-vulnerable');
for (const entry of quiet) addCase(entry, 'nv');
for (const entry of dnsHosts) addCase(entry, 'dh');

// A DKIM selector aliased into a web service, its page showing the service's unclaimed text.
const webEntry = catalogue.find(
  (e) => e.status === 'vulnerable' && e.dns === 'resolves' && e.cname[0],
) as Entry;
const dkim = `s1._domainkey.${apex}`;
records.push([dkim, { type: 'CNAME', data: sampleHost('dw-dkim', webEntry.cname[0] as string) }]);
a(sampleHost('dw-dkim', webEntry.cname[0] as string));
pages.set(dkim, evidencePage(webEntry));

// A CNAME to a provider's own apex (its home page), which is no app anyone could claim.
const apexEntry = catalogue.find(
  (e) =>
    e.status === 'vulnerable' &&
    e.dns === 'resolves' &&
    e.cname.some((p) => !p.includes('*') && registrableDomain(p) === p),
) as Entry;
const providerApex = apexEntry.cname.find((p) => registrableDomain(p) === p) as string;
const toProvider = `home.${apex}`;
records.push([toProvider, { type: 'CNAME', data: providerApex }]);
a(providerApex);
pages.set(toProvider, evidencePage(apexEntry));

// A whole domain delegated to DigitalOcean, whose nameservers no longer hold its zone, and a
// twin whose nameservers still serve it while the resolvers fail.
const lameApex = 'lame-apex.test';
const downApex = 'down-apex.test';
records.push(['test', { type: 'NS', data: 'ns.dw-registry.com' }]);
a('ns.dw-registry.com');
a('ns1.digitalocean.com');
a('ns1.dw-served.com');
behaviours.push([lameApex, 'servfail'], [downApex, 'servfail']);

const zone = zoneFrom({
  apex,
  records,
  behaviours,
  pages,
  referrals: [
    [lameApex, { type: 'NS', data: 'ns1.digitalocean.com' }],
    [downApex, { type: 'NS', data: 'ns1.dw-served.com' }],
  ],
  servedZones: [[downApex, { type: 'SOA', data: 'ns1.dw-served.com' }]],
});

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

const scanZone = () => scanDomain(apex, fixtures.options({ subdomains: zone.names(), ct: false }));

describe.each(['refused', 'noerror', 'nxdomain'] as const)(
  'nameservers that lost a zone answer %s',
  (disown) => {
    let result: ScanResult;
    beforeAll(async () => {
      fixtures.nameserver.disown = disown;
      try {
        result = await scanZone();
      } finally {
        fixtures.nameserver.disown = undefined;
      }
    }, 60_000);
    const at = (entry: Entry) =>
      result.findings.filter(
        (f) =>
          f.subdomain === caseName.get(entry.id) && (f.subdomain !== apex || f.service === entry.service),
      );

    it('grades each DNS host the references call vulnerable likely or claimable, never review', () => {
      expect(dnsHosts.length).toBeGreaterThanOrEqual(10);
      for (const entry of dnsHosts) {
        const found = at(entry);
        expect(
          found.map((f) => f.service),
          entry.id,
        ).toEqual([entry.service]);
        // No DNS host answers whether a zone can be added: unproven, so at most likely.
        expect(found[0]?.status, entry.id).toBe(
          provenGrade(entry, found[0]?.subdomain ?? '', found[0]?.target ?? ''),
        );
        expect(found[0]?.status, entry.id).toBe(
          gradeFor(entry).status === 'claimable' ? 'likely' : gradeFor(entry).status,
        );
        expect(found[0]?.status, entry.id).not.toBe('review');
      }
    });

    it('never grades a service that verifies ownership above review, whatever its page says', () => {
      expect(quiet.length).toBeGreaterThan(20);
      for (const entry of quiet) {
        const found = result.findings.filter((f) => f.subdomain === caseName.get(entry.id));
        for (const finding of found) expect(finding.status, `${entry.id}: ${finding.service}`).toBe('review');
      }
    });
  },
);

describe('names and hosts that are not what they seem', () => {
  let result: ScanResult;
  beforeAll(async () => {
    result = await scanZone();
  }, 60_000);

  it('reads no web page as evidence for a DKIM selector', () => {
    expect(result.subdomains).toContain(dkim);
    expect(result.findings.filter((f) => f.subdomain === dkim)).toEqual([]);
  });

  it("takes a provider's own apex for the provider, not for an unclaimed resource", () => {
    expect(result.subdomains).toContain(toProvider);
    expect(result.findings.filter((f) => f.subdomain === toProvider)).toEqual([]);
  });

  it('lists Cloudflare, Route 53, UltraDNS and Akamai nameservers as refusing unclaimed zones', () => {
    for (const server of [
      'ada.ns.cloudflare.com',
      'ns-1.awsdns-01.org',
      'pdns1.ultradns.net',
      'a1-1.akam.net',
    ]) {
      const entry = catalogue.find(
        (e) => e.dns === 'zone-missing' && e.ns.some((p) => server.endsWith(p.replace(/^.*\*/, ''))),
      );
      expect(entry?.status, server).toBe('not-vulnerable');
    }
  });
});

describe('a domain whose own delegation is lame', () => {
  it('is likely when its DNS host lets anyone add the zone (no DNS host answers whether it can be added)', async () => {
    const result = await scanDomain(lameApex, fixtures.options({ ct: false }));
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({
      subdomain: lameApex,
      recordType: 'NS',
      service: 'DigitalOcean DNS',
      status: 'likely',
      sources: ['given'],
    });
    expect(result.findings[0]?.evidence[0]).toContain("registry's nameserver");
  });

  it('fails the scan when its nameservers still hold the zone', async () => {
    await expect(scanDomain(downApex, fixtures.options({ ct: false }))).rejects.toThrow(/give no answer/);
  });
});
