import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue, REFERENCES } from '../../../src/scanner/fingerprints/catalogue.ts';
import { entriesForCname, entriesForNs } from '../../../src/scanner/fingerprints/match.ts';
import type { Entry } from '../../../src/scanner/fingerprints/schema.ts';

// The references as read (name, status, date), kept in the repository so this check runs offline.
const dir = new URL('../../../src/scanner/fingerprints/references/', import.meta.url);
const read = <T extends z.ZodType>(file: string, rows: T) =>
  z
    .object({ source: z.string(), url: z.url(), date: z.iso.date(), rows: z.array(rows) })
    .loose()
    .parse(JSON.parse(readFileSync(new URL(file, dir), 'utf8')));

const status = z.enum(['vulnerable', 'edge', 'not-vulnerable', 'closed']);
const ciito = read(
  'can-i-take-over-xyz.json',
  z.object({ name: z.string(), status, domains: z.array(z.string()), links: z.array(z.url()) }),
);
const citod = read(
  'can-i-take-over-dns.json',
  z.object({
    name: z.string(),
    status,
    purchase: z.boolean(),
    nameservers: z.array(z.string()),
    issue: z.number().nullable(),
  }),
);
const reaper = read('dnsreaper.json', z.object({ file: z.string(), date: z.iso.date() }));
const nuclei = read('nuclei-templates.json', z.object({ file: z.string() }));
const excluded = z
  .array(
    z.object({
      source: z.enum([
        'can-i-take-over-xyz',
        'can-i-take-over-dns',
        'dnsReaper',
        'nuclei-templates',
        'BadDNS',
      ]),
      name: z.string(),
      reason: z.string().min(20),
      date: z.iso.date(),
    }),
  )
  .parse(JSON.parse(readFileSync(new URL('excluded.json', dir), 'utf8')));

const isExcluded = (source: string, name: string) =>
  excluded.some((e) => e.source === source && e.name === name);
const citing = (url: string) => catalogue.filter((e) => e.sources.some((s) => s.url === url));
const alnum = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
/** A host below a pattern of the reference (`*` stands for any label part). */
const sample = (pattern: string) => `dw-sample.${pattern.replace(/\*+/g, 'dw1')}`;

/** The catalogue entries that cover a can-i-take-over-xyz row: citing its thread, or the table for its domain or name. */
function coverCiito(row: (typeof ciito.rows)[number]): Entry[] {
  const byLink = row.links.flatMap(citing);
  if (byLink.length > 0) return [...new Set(byLink)];
  return citing(REFERENCES.ciito).filter(
    (e) =>
      row.domains.some((d) => entriesForCname(sample(d), [e]).length > 0) ||
      alnum(e.service).includes(alnum(row.name)),
  );
}

function coverCitod(row: (typeof citod.rows)[number]): Entry[] {
  if (row.issue !== null) return citing(`${REFERENCES.citod}/issues/${row.issue}`);
  return citing(REFERENCES.citod).filter((e) =>
    row.nameservers.some((ns) => entriesForNs(sample(ns), [e]).length > 0),
  );
}

/** An entry may differ from a reference's status only on newer dated evidence. */
function agrees(entry: Entry, referenceStatus: string, referenceDate: string) {
  if (entry.status === referenceStatus) return true;
  return entry.sources.some((s) => s.date > referenceDate);
}

describe('completeness against the public takeover references', () => {
  it('has every can-i-take-over-xyz row marked vulnerable or edge case in the catalogue, or excluded', () => {
    const missing = ciito.rows
      .filter((r) => r.status === 'vulnerable' || r.status === 'edge')
      .filter((r) => coverCiito(r).length === 0 && !isExcluded(ciito.source, r.name))
      .map((r) => r.name);
    expect(missing).toEqual([]);
  });

  it('has every can-i-take-over-dns provider marked vulnerable or edge case in the catalogue, or excluded', () => {
    const missing = citod.rows
      .filter((r) => r.status === 'vulnerable' || r.status === 'edge')
      .filter((r) => coverCitod(r).length === 0 && !isExcluded(citod.source, r.name))
      .map((r) => r.name);
    expect(missing).toEqual([]);
  });

  it('has every dnsReaper signature in the catalogue, or excluded', () => {
    const missing = reaper.rows
      .filter(
        (r) => citing(`${REFERENCES.reaper}/${r.file}`).length === 0 && !isExcluded(reaper.source, r.file),
      )
      .map((r) => r.file);
    expect(missing).toEqual([]);
  });

  it('has every nuclei takeover template in the catalogue, or excluded', () => {
    const missing = nuclei.rows
      .filter(
        (r) => citing(`${REFERENCES.nuclei}/${r.file}`).length === 0 && !isExcluded(nuclei.source, r.file),
      )
      .map((r) => r.file);
    expect(missing).toEqual([]);
  });

  it("keeps each reference's status unless newer dated evidence says otherwise", () => {
    const disagreements: string[] = [];
    for (const row of ciito.rows) {
      for (const entry of coverCiito(row).filter((e) => row.links.length === 0 || !isAzure(e))) {
        if (!agrees(entry, row.status, ciito.date))
          disagreements.push(`${row.name} → ${entry.id} (${entry.status})`);
      }
    }
    for (const row of citod.rows.filter((r) => r.status !== 'closed')) {
      for (const entry of coverCitod(row)) {
        if (!agrees(entry, row.status, citod.date))
          disagreements.push(`${row.name} → ${entry.id} (${entry.status})`);
        if (row.status === 'vulnerable' && entry.paid !== row.purchase)
          disagreements.push(`${row.name}: purchase`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('gives every exclusion a reason and a date, and excludes nothing the catalogue holds', () => {
    for (const e of excluded) {
      const held =
        e.source === 'dnsReaper'
          ? citing(`${REFERENCES.reaper}/${e.name}`)
          : e.source === 'nuclei-templates'
            ? citing(`${REFERENCES.nuclei}/${e.name}`)
            : [];
      expect(
        held.map((x) => x.id),
        e.name,
      ).toEqual([]);
    }
  });
});

/** can-i-take-over-xyz lists all of Azure as one row; the per-resource entries grade each resource. */
function isAzure(entry: Entry) {
  return entry.id.startsWith('azure-');
}
