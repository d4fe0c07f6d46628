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

const quiet = catalogue.filter((e) => e.status === 'not-vulnerable' || e.status === 'retired');
const dnsHosts = catalogue.filter((e) => e.dns === 'zone-missing' && e.status === 'vulnerable');
const edgeDnsHosts = catalogue.filter((e) => e.dns === 'zone-missing' && e.status === 'edge');
for (const entry of quiet) addCase(entry, 'nv');
for (const entry of [...dnsHosts, ...edgeDnsHosts]) addCase(entry, 'dh');

const byId = (id: string) => catalogue.find((e) => e.id === id) as Entry;
/** A name aliased to `target` (an address of the fixtures), showing `page`. */
function live(label: string, target: string, page?: Page) {
  const name = `${label}.${apex}`;
  records.push([name, { type: 'CNAME', data: target }]);
  a(target);
  if (page) pages.set(name, page);
  return name;
}
const notFound = (body: string): Page => ({
  status: 404,
  body: `<html><body><h1>${body}</h1></body></html>`,
});

// Rule 1: a reference's generic sentence, at the service's own suffix, elsewhere in its domain,
// and at a host of nobody's catalogue.
const brightcove = byId('brightcove');
const webflow = byId('webflow');
const genericOwn = live(
  'g-own',
  sampleHost('dw-gen', brightcove.cname[0] as string),
  notFound('Page Not Found'),
);
const genericElsewhere = live('g-elsewhere', 'dw-gen.cdn.webflow.com', notFound('404 - Page not found'));
const specificElsewhere = live('g-specific', 'dw-spec.cdn.webflow.com', evidencePage(webflow));
const genericNobody = live('g-nobody', 'dw-gen.unlisted-host.com', notFound('Page Not Found'));
// Rule 2: edge cases, one without a provider check (Heroku), one whose check says free (Shopify).
const edgeUnchecked = live('e-heroku', 'dw-edge.herokuapp.com', evidencePage(byId('heroku')));
const edgeFree = live('e-shopify', 'dw-edge.myshopify.com', evidencePage(byId('shopify')));
// Rule 3: every retired service, its name gone (NXDOMAIN at the service).
const retired = catalogue.filter((e) => e.status === 'retired');
const retiredName = (entry: Entry) => `rt-${entry.id}.${apex}`;
for (const entry of retired)
  records.push([
    retiredName(entry),
    { type: 'CNAME', data: sampleHost('dw-gone', entry.cname[0] as string) },
  ]);
// Rule 4: a shared edge host that verifies the custom domain before it serves it, its page showing.
const verifying = catalogue.filter((e) => e.verifiesDomain && e.dns === 'resolves');
const verifyingName = (entry: Entry) => `vd-${entry.id}.${apex}`;
for (const entry of verifying)
  live(`vd-${entry.id}`, sampleHost('dw-gone', entry.cname[0] as string), evidencePage(entry));

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

    it('grades an edge-case DNS host review: no DNS host answers whether a zone can be added', () => {
      expect(edgeDnsHosts.length).toBeGreaterThanOrEqual(3);
      for (const entry of edgeDnsHosts) {
        const found = at(entry);
        expect(
          found.map((f) => [f.service, f.status, f.risk]),
          entry.id,
        ).toEqual([[entry.service, 'review', 'medium']]);
      }
    });

    it('grades each DNS host the references call vulnerable likely or claimable, never review', () => {
      expect(dnsHosts.length).toBeGreaterThanOrEqual(9);
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

describe('the status rules of src/scanner/README.md', () => {
  let result: ScanResult;
  beforeAll(async () => {
    result = await scanZone();
  }, 60_000);
  const findingsAt = (name: string) => result.findings.filter((f) => f.subdomain === name);

  it("counts a reference's generic sentence where the name points at the service's own suffix, at most likely", () => {
    const found = findingsAt(genericOwn);
    expect(found.map((f) => [f.service, f.status])).toEqual([[brightcove.service, 'likely']]);
    expect(found[0]?.evidence.join(' ')).toMatch(
      /"Page Not Found" \(words any 404 could say, counted as the name points at Brightcove Gallery itself\)/,
    );
  });

  it("never counts it on its own: not under a suffix of the service's domain the references do not give, not at a host of no service", () => {
    expect(result.subdomains).toEqual(expect.arrayContaining([genericElsewhere, genericNobody]));
    expect(findingsAt(genericElsewhere)).toEqual([]);
    expect(findingsAt(genericNobody)).toEqual([]);
    // The service's own unclaimed page still counts there, as the fingerprint of a known service.
    expect(findingsAt(specificElsewhere).map((f) => f.service)).toEqual([webflow.service]);
  });

  it('grades an edge case review, and likely once a provider check says the name is free', () => {
    expect(findingsAt(edgeUnchecked).map((f) => [f.service, f.status, f.risk])).toEqual([
      ['Heroku', 'review', 'medium'],
    ]);
    const free = findingsAt(edgeFree);
    expect(free.map((f) => [f.service, f.status])).toEqual([['Shopify', 'likely']]);
    expect(free[0]?.proof).toMatchObject({ check: 'shopify', answer: { free: true } });
    for (const entry of catalogue.filter((e) => e.status === 'edge'))
      expect(gradeFor(entry).status, entry.id).toBe('review');
  });

  it('grades a service the newest dated source calls retired review, saying to remove the record', () => {
    expect(retired.map((e) => e.cname[0])).toEqual(
      expect.arrayContaining(['cloudapp.net', 'azureedge.net', 'azuredatalakestore.net', 'azure-mobile.net']),
    );
    for (const entry of retired) {
      // The newest source an entry cites is the one that retired it.
      const newest = entry.sources
        .map((s) => s.date)
        .sort()
        .at(-1);
      expect(entry.reason, entry.id).toMatch(/retired/);
      expect(newest && newest >= '2026-01-01', entry.id).toBe(true);
      const found = findingsAt(retiredName(entry));
      expect(
        found.map((f) => [f.service, f.status]),
        entry.id,
      ).toEqual([[entry.service, 'review']]);
      expect(found[0]?.explanation).toContain('points at a retired service: remove the record');
      expect(found[0]?.proof, entry.id).toBeNull();
    }
  });

  it('grades a shared edge host that verifies the custom domain before it serves review, whatever its page says', () => {
    expect(verifying.map((e) => e.id)).toEqual(expect.arrayContaining(['vercel', 'netlify', 'mailgun']));
    for (const entry of verifying) {
      const found = findingsAt(verifyingName(entry));
      expect(
        found.map((f) => [f.service, f.status, f.risk]),
        entry.id,
      ).toEqual([[entry.service, 'review', 'low']]);
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
