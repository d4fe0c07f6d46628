import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeFor } from '../../../src/scanner/detect/grade.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { evidenceIn, matchesSuffix } from '../../../src/scanner/fingerprints/match.ts';
import { type Entry, entrySchema } from '../../../src/scanner/fingerprints/schema.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { buildCatalogueZone } from '../../fixtures/catalogue-zone.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const zone = buildCatalogueZone();
let fixtures: ScanFixtures;
let result: ScanResult;

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(zone.apex, fixtures.options({ subdomains: zone.names(), ct: false }));
});
afterAll(() => fixtures?.close());

describe('the catalogue', () => {
  it('grades at least 100 services vulnerable, each with its review and texts', () => {
    expect(catalogue.filter((e) => e.status === 'vulnerable').length).toBeGreaterThanOrEqual(100);
    for (const entry of catalogue) expect(entry.reason.length).toBeGreaterThan(10);
  });

  it('gives every entry at least one source, each with the date of what it says', () => {
    for (const entry of catalogue) {
      expect(entry.sources.length, entry.id).toBeGreaterThan(0);
      for (const source of entry.sources) {
        expect(source.url, entry.id).toMatch(/^https:\/\//);
        expect(source.date, entry.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(Date.parse(source.date), entry.id).toBeLessThanOrEqual(Date.parse(entry.reviewed));
      }
    }
  });

  it('refuses an entry without a source, or with a source without a date', () => {
    const entry = catalogue[0] as Entry;
    expect(entrySchema.safeParse(entry).success).toBe(true);
    expect(entrySchema.safeParse({ ...entry, sources: [] }).success).toBe(false);
    expect(entrySchema.safeParse({ ...entry, sources: [{ url: 'https://example.com/x' }] }).success).toBe(
      false,
    );
    expect(entrySchema.safeParse({ ...entry, sources: ['https://example.com/x'] }).success).toBe(false);
  });

  it('never grades a documented vulnerable service review, and claimable only without a purchase', () => {
    for (const entry of catalogue.filter((e) => e.status === 'vulnerable')) {
      expect(gradeFor(entry), entry.id).toEqual({
        status: entry.paid ? 'likely' : 'claimable',
        risk: 'high',
      });
    }
  });

  it('accepts each variant of a page on its own, and none without one', () => {
    const withVariants = catalogue.filter((e) => (e.http?.anyBody.length ?? 0) > 0);
    expect(withVariants.length).toBeGreaterThan(5);
    for (const entry of withVariants) {
      const http = entry.http as NonNullable<Entry['http']>;
      const response = (body: string) => ({
        url: 'http://x.test/',
        host: 'x.test',
        address: '192.0.2.1',
        status: http.status?.[0] ?? 404,
        headers: Object.fromEntries(http.headers.map((h) => [h.name.toLowerCase(), h.contains])),
        body: `${http.body.join(' ')} ${body}`,
      });
      for (const variant of http.anyBody)
        expect(evidenceIn(entry, response(variant)), entry.id).toContain(variant);
      expect(evidenceIn(entry, response('nothing of the sort')), entry.id).toBeUndefined();
    }
  });

  it('matches suffixes on label boundaries, with wildcards inside labels', () => {
    expect(matchesSuffix('a.github.io', 'github.io')).toBe(true);
    expect(matchesSuffix('github.io', 'github.io')).toBe(true);
    expect(matchesSuffix('notgithub.io', 'github.io')).toBe(false);
    expect(matchesSuffix('ns-1.awsdns-07.co.uk', 'awsdns-*.co.uk')).toBe(true);
    expect(matchesSuffix('ns-1.awsdns-.co.uk', 'awsdns-*.co.uk')).toBe(false);
    expect(matchesSuffix('b.s3.eu-west-2.amazonaws.com', 's3.*.amazonaws.com')).toBe(true);
    expect(matchesSuffix('b.s3x.eu-west-2.amazonaws.com', 's3.*.amazonaws.com')).toBe(false);
  });

  it('gives every entry a vulnerable case in this zone or, when it is matched by address, in addresses.test.ts', () => {
    const covered = new Set(zone.cases.map((c) => c.entry.id));
    for (const entry of catalogue) expect(covered.has(entry.id) || entry.ips.length > 0).toBe(true);
  });

  it('never grades a service that verifies ownership as claimable', () => {
    for (const c of zone.cases.filter((c) => c.entry.status === 'not-vulnerable')) {
      expect(c.expected).toBe('review');
    }
  });
});

describe.each(zone.cases.map((c) => [c.entry.id, c] as const))('%s', (_id, c) => {
  it('finds the vulnerable case with the grade of the entry', () => {
    const found = result.findings.filter(
      (f) => f.subdomain === c.vulnerable.subdomain && f.target === c.vulnerable.target,
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.service).toBe(c.entry.service);
    expect(found[0]?.status).toBe(c.expected);
    expect(found[0]?.evidence.length).toBeGreaterThan(1);
  });

  it('reports none of the benign twins', () => {
    for (const name of c.benign) expect(result.findings.filter((f) => f.subdomain === name)).toEqual([]);
    for (const target of c.benignTargets)
      expect(result.findings.filter((f) => f.target === target)).toEqual([]);
  });
});

describe('the scan as a whole', () => {
  it('lists every name it checked and reports nothing outside the cases', () => {
    const expected = new Set(zone.cases.map((c) => `${c.vulnerable.subdomain} ${c.vulnerable.target}`));
    expect(result.findings.map((f) => `${f.subdomain} ${f.target}`).filter((k) => !expected.has(k))).toEqual(
      [],
    );
    for (const c of zone.cases) expect(result.subdomains).toContain(c.vulnerable.subdomain);
  });
});
