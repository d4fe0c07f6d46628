/**
 * Completeness against BadDNS's signatures, read raw (`references/baddns-signatures.json`: every
 * signature of baddns/signatures at 373abc9 with its CNAME and nameserver identifiers, word and
 * status matchers): every CNAME pattern and nameserver of a signature is matched by a catalogue
 * entry, and every body matcher and status of it is in that entry's evidence, or the signature is
 * in `references/excluded.json` with a date and a reason. The negative signatures are the
 * known-safe list (`fingerprints/known-safe.ts`) or `not-vulnerable` catalogue entries.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { knownSafe, knownSafeCname } from '../../../src/scanner/fingerprints/known-safe.ts';
import { matchesSuffix } from '../../../src/scanner/fingerprints/match.ts';
import type { Entry } from '../../../src/scanner/fingerprints/schema.ts';
import {
  excluded as allExcluded,
  isExcluded as isExcludedFrom,
  reached,
  sample,
} from './reference-coverage.ts';

const dir = new URL('../../../src/scanner/fingerprints/references/', import.meta.url);
const snapshot = z
  .object({
    source: z.literal('BadDNS'),
    url: z.url(),
    date: z.iso.date(),
    rows: z.array(
      z.object({
        file: z.string(),
        service: z.string(),
        mode: z.enum(['http', 'dns_nxdomain', 'dns_nosoa']),
        negative: z.boolean(),
        cnames: z.array(z.string()),
        notCnames: z.array(z.string()),
        nameservers: z.array(z.string()),
        words: z.array(
          z.object({
            part: z.string(),
            condition: z.string(),
            words: z.array(z.string()),
            negative: z.boolean(),
          }),
        ),
        status: z.array(z.number()),
      }),
    ),
  })
  .parse(JSON.parse(readFileSync(new URL('baddns-signatures.json', dir), 'utf8')));
const isExcluded = (file: string) => isExcludedFrom('BadDNS', file);
const excluded = allExcluded.filter((e) => e.source === 'BadDNS');

/** The entry's page text, its generic sentences included (a signature reaches it by its own suffixes). */
const evidenceText = (entry: Entry) =>
  [...(entry.http?.body ?? []), ...(entry.http?.anyBody ?? []), ...(entry.http?.generic ?? [])].map((t) =>
    t.toLowerCase(),
  );

/** What of one positive signature the catalogue lacks: its patterns, then its matchers. */
function gaps(row: (typeof snapshot.rows)[number]): string[] {
  const out: string[] = [];
  const entries = new Set<Entry>();
  for (const cname of row.cnames) {
    const found = reached(cname, 'cname');
    if (found.length === 0) out.push(`cname ${cname}`);
    for (const e of found) entries.add(e);
  }
  for (const ns of row.nameservers) {
    const found = reached(ns, 'ns');
    if (found.length === 0) out.push(`ns ${ns}`);
    for (const e of found) entries.add(e);
  }
  // The hosts a signature takes out of its CNAMEs are taken out of the entries those reach.
  for (const host of row.notCnames)
    if (![...entries].some((e) => e.notCname.some((p) => matchesSuffix(sample(host), p))))
      out.push(`not_cname ${host}`);
  if (row.mode === 'dns_nxdomain' && ![...entries].some((e) => e.dns === 'nxdomain')) out.push('nxdomain');
  if (row.mode !== 'http' || entries.size === 0) return out;
  const web = [...entries].filter((e) => e.http);
  for (const matcher of row.words.filter((m) => m.part === 'body' && !m.negative)) {
    const held = (word: string) =>
      web.some((e) =>
        evidenceText(e).some((t) => t.includes(word.toLowerCase()) || word.toLowerCase().includes(t)),
      );
    const ok = matcher.condition === 'and' ? matcher.words.every(held) : matcher.words.some(held);
    if (!ok) out.push(`body ${JSON.stringify(matcher.words)}`);
  }
  for (const code of row.status)
    if (!web.some((e) => !e.http?.status || e.http.status.includes(code))) out.push(`status ${code}`);
  return out;
}

describe('completeness against BadDNS signatures', () => {
  it('has every CNAME, nameserver, body and status matcher of every signature, or excludes the signature', () => {
    const missing = snapshot.rows
      .filter((r) => !r.negative && !isExcluded(r.file))
      .map((r) => [r.file, gaps(r)] as const)
      .filter(([, list]) => list.length > 0)
      .map(([file, list]) => `${file}: ${list.join('; ')}`);
    expect(missing).toEqual([]);
  });

  it('keeps every negative signature as known-safe (CNAME) or not-vulnerable (nameservers)', () => {
    const missing: string[] = [];
    for (const row of snapshot.rows.filter((r) => r.negative)) {
      for (const cname of row.cnames)
        if (!knownSafeCname(sample(cname))) missing.push(`${row.file}: ${cname}`);
      for (const ns of row.nameservers) {
        const safe =
          knownSafe.some((s) => s.ns.some((p) => matchesSuffix(sample(ns), p) || p.includes(ns))) ||
          reached(ns, 'ns').some((e) => e.status === 'not-vulnerable');
        if (!safe) missing.push(`${row.file}: ${ns}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cites the negative signature each known-safe service comes from', () => {
    const files = new Set(snapshot.rows.filter((r) => r.negative).map((r) => r.file));
    for (const s of knownSafe) expect(files.has(s.source.split('/').pop() as string), s.service).toBe(true);
  });

  it('excludes no signature the catalogue covers in full', () => {
    const covered = excluded.filter((e) => {
      const row = snapshot.rows.find((r) => r.file === e.name);
      return row && gaps(row).length === 0;
    });
    expect(covered.map((e) => e.name)).toEqual([]);
    expect(catalogue.length).toBeGreaterThan(0);
  });
});
