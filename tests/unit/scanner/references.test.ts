/**
 * Completeness against the public takeover references, read at the pattern level from their
 * snapshots in `fingerprints/references/` (each the upstream file's rows as written, with the
 * commit and date read): every CNAME pattern, address and nameserver, every body and status matcher
 * of every row is in the catalogue (`reference-coverage.ts`), or the row is excluded with a date and
 * a reason in `references/excluded.json`; every signature and template is cited by the entries that
 * cover it; an entry differs from a reference's status only on newer dated evidence.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue, REFERENCES } from '../../../src/scanner/fingerprints/catalogue.ts';
import type { Entry } from '../../../src/scanner/fingerprints/schema.ts';
import {
  excluded,
  gaps,
  isExcluded,
  matcherSchema,
  type ReferenceRow,
  reached,
  readSnapshot,
} from './reference-coverage.ts';

const ciito = readSnapshot(
  'can-i-take-over-xyz.json',
  z.object({
    service: z.string(),
    status: z.enum(['Vulnerable', 'Edge case', 'Not vulnerable']),
    cname: z.array(z.string()),
    fingerprint: z.string(),
    httpStatus: z.number().nullable(),
    nxdomain: z.boolean(),
    discussion: z.array(z.url()),
  }),
);
const citod = readSnapshot(
  'can-i-take-over-dns.json',
  z.object({
    name: z.string(),
    status: z.string(),
    nameservers: z.array(z.string()),
    issue: z.number().nullable(),
  }),
);
const reaper = readSnapshot(
  'dnsreaper.json',
  z.object({
    file: z.string(),
    date: z.iso.date(),
    template: z.string(),
    cnames: z.array(z.string()).default([]),
    ips: z.array(z.string()).default([]),
    nameservers: z.array(z.string()).default([]),
    body: z.array(z.string()).default([]),
    status: z.array(z.number()).default([]),
    nxdomain: z.boolean().default(false),
  }),
);
const nuclei = readSnapshot(
  'nuclei-templates.json',
  z.object({
    file: z.string(),
    commit: z.string(),
    words: z.array(matcherSchema),
    status: z.array(z.number()),
    cnames: z.array(z.string()),
    nxdomain: z.boolean(),
    nameservers: z.array(z.string()),
  }),
);

type Status = Entry['status'] | 'closed';
/** can-i-take-over-xyz's status column in the catalogue's words. */
const ciitoStatus = (s: (typeof ciito.rows)[number]['status']): Status =>
  s === 'Vulnerable' ? 'vulnerable' : s === 'Edge case' ? 'edge' : 'not-vulnerable';
/** can-i-take-over-dns's status cell ("Vulnerable (w/ purchase)", "Registration Closed …") in the catalogue's words. */
const citodStatus = (s: string): Status =>
  s.startsWith('Vulnerable')
    ? 'vulnerable'
    : s.startsWith('Edge')
      ? 'edge'
      : s.startsWith('Registration Closed')
        ? 'closed'
        : 'not-vulnerable';
const purchase = (s: string) => s.includes('purchase');

/** A fingerprint cell that is only a status code (`HTTP_STATUS=301`). */
const statusOnly = (fingerprint: string) => {
  const code = /^HTTP_STATUS=(\d{3})$/.exec(fingerprint)?.[1];
  return code === undefined ? undefined : Number(code);
};

const page = (words: readonly string[]) =>
  words.filter((w) => w !== '').length > 0
    ? [{ part: 'body', condition: 'or' as const, words: [...words], negative: false }]
    : [];

const citing = (url: string) => catalogue.filter((e) => e.sources.some((s) => s.url === url));

/** The entries that cover a can-i-take-over-xyz row: citing its discussion, or reached by its CNAMEs. */
function coverCiito(row: (typeof ciito.rows)[number]): Entry[] {
  const byLink = row.discussion.flatMap(citing);
  if (byLink.length > 0) return [...new Set(byLink)];
  return [...new Set(row.cname.flatMap((c) => reached(c, 'cname')))].filter((e) =>
    e.sources.some((s) => s.url.startsWith(REFERENCES.ciito)),
  );
}

function coverCitod(row: (typeof citod.rows)[number]): Entry[] {
  if (row.issue !== null) return citing(`${REFERENCES.citod}/issues/${row.issue}`);
  return [...new Set(row.nameservers.flatMap((ns) => reached(ns, 'ns')))];
}

const rows: Array<{ source: string; name: string; row: ReferenceRow; cited?: Entry[] }> = [
  ...ciito.rows
    .filter((r) => ciitoStatus(r.status) !== 'not-vulnerable')
    .map((r) => ({
      source: ciito.source,
      name: r.service,
      row: {
        cnames: r.cname.filter((c) => !z.ipv4().safeParse(c).success),
        ips: r.cname.filter((c) => z.ipv4().safeParse(c).success),
        nameservers: [],
        nxdomain: r.nxdomain,
        words: r.nxdomain || statusOnly(r.fingerprint) !== undefined ? [] : page([r.fingerprint]),
        status: [r.httpStatus, statusOnly(r.fingerprint)].filter((c) => c != null),
      },
      cited: coverCiito(r),
    })),
  ...citod.rows.map((r) => ({
    source: citod.source,
    name: r.name,
    row: { cnames: [], nameservers: r.nameservers, nxdomain: false, words: [], status: [] },
    cited: coverCitod(r),
  })),
  ...reaper.rows.map((r) => ({
    source: reaper.source,
    name: r.file,
    row: { ...r, words: page(r.body) },
    cited: citing(`${REFERENCES.reaper}/${r.file}`),
  })),
  ...nuclei.rows.map((r) => ({
    source: nuclei.source,
    name: r.file,
    row: r,
    cited: citing(`${REFERENCES.nuclei}/${r.file}`),
  })),
];

/** An entry may differ from a reference's status only on newer dated evidence. */
function agrees(entry: Entry, referenceStatus: Status, referenceDate: string) {
  if (entry.status === referenceStatus) return true;
  return entry.sources.some((s) => s.date > referenceDate);
}

describe('completeness against the public takeover references, pattern by pattern', () => {
  it('has every CNAME, address, nameserver, body and status matcher of every reference row, or excludes the row', () => {
    const missing = rows
      .filter((r) => !isExcluded(r.source, r.name))
      .map((r) => [`${r.source} ${r.name}`, gaps(r.row, r.cited)] as const)
      .filter(([, list]) => list.length > 0)
      .map(([name, list]) => `${name}: ${list.join('; ')}`);
    expect(missing).toEqual([]);
  });

  it('cites every dnsReaper signature and nuclei template the catalogue covers', () => {
    const uncited = [
      ...reaper.rows
        .filter((r) => !isExcluded(reaper.source, r.file))
        .filter((r) => citing(`${REFERENCES.reaper}/${r.file}`).length === 0)
        .map((r) => r.file),
      ...nuclei.rows
        .filter((r) => !isExcluded(nuclei.source, r.file))
        .filter((r) => citing(`${REFERENCES.nuclei}/${r.file}`).length === 0)
        .map((r) => r.file),
    ];
    expect(uncited).toEqual([]);
  });

  it("keeps each reference's status unless newer dated evidence says otherwise", () => {
    const disagreements: string[] = [];
    for (const row of ciito.rows) {
      for (const entry of coverCiito(row).filter((e) => row.discussion.length === 0 || !isAzure(e))) {
        if (!agrees(entry, ciitoStatus(row.status), ciito.date))
          disagreements.push(`${row.service} → ${entry.id} (${entry.status})`);
      }
    }
    for (const row of citod.rows.filter((r) => citodStatus(r.status) !== 'closed')) {
      for (const entry of coverCitod(row)) {
        if (!agrees(entry, citodStatus(row.status), citod.date))
          disagreements.push(`${row.name} → ${entry.id} (${entry.status})`);
        if (citodStatus(row.status) === 'vulnerable' && entry.paid !== purchase(row.status))
          disagreements.push(`${row.name}: purchase`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('excludes only rows the snapshots hold and the catalogue does not cover in full', () => {
    const held = new Set(rows.map((r) => `${r.source} ${r.name}`));
    const stale = excluded
      .filter((e) => e.source !== 'BadDNS')
      .filter((e) => {
        const row = rows.find((r) => r.source === e.source && r.name === e.name);
        return !held.has(`${e.source} ${e.name}`) || (row && gaps(row.row, row.cited).length === 0);
      });
    expect(stale.map((e) => `${e.source} ${e.name}`)).toEqual([]);
  });
});

/** can-i-take-over-xyz lists all of Azure as one row; the per-resource entries grade each resource. */
function isAzure(entry: Entry) {
  return entry.id.startsWith('azure-');
}
