/**
 * Pattern-level coverage of a takeover reference by the catalogue: every CNAME pattern, address and
 * nameserver of a reference row reaches a catalogue entry, and every body matcher, negative body
 * matcher and status of the row is in that entry's evidence. The references tests read their
 * snapshots into `ReferenceRow`s and ask `gaps()` what the catalogue lacks.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import {
  entriesForCname,
  entriesForIp,
  entriesForNs,
  entriesForRegistrable,
} from '../../../src/scanner/fingerprints/match.ts';
import type { Entry } from '../../../src/scanner/fingerprints/schema.ts';

const dir = new URL('../../../src/scanner/fingerprints/references/', import.meta.url);

/** A snapshot file of `fingerprints/references/`: where and when it was read, and its rows. */
export const readSnapshot = <T extends z.ZodType>(file: string, rows: T) =>
  z
    .object({ source: z.string(), url: z.url(), date: z.iso.date(), rows: z.array(rows) })
    .loose()
    .parse(JSON.parse(readFileSync(new URL(file, dir), 'utf8')));

export const excluded = z
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

export const isExcluded = (source: string, name: string) =>
  excluded.some((e) => e.source === source && e.name === name);

/** One matcher on a response: its words, all (`and`) or one (`or`) of them; negative ones cancel. */
export const matcherSchema = z.object({
  part: z.string(),
  condition: z.enum(['and', 'or']),
  words: z.array(z.string()),
  negative: z.boolean(),
});

export interface ReferenceRow {
  cnames: readonly string[];
  ips?: readonly string[];
  nameservers: readonly string[];
  /** The reference reports the service when the CNAME target does not exist. */
  nxdomain: boolean;
  words: readonly z.infer<typeof matcherSchema>[];
  status: readonly number[];
}

/** A host below a reference's pattern (`*` stands for any part of a label; a bare word is a domain). */
export const sample = (pattern: string) =>
  `dw-sample.${pattern.replace(/^\.+|\.+$/g, '').replace(/\*+/g, 'dw1')}`;

/**
 * The entries a reference's CNAME or nameserver pattern reaches: by suffix, by the service's
 * registrable domain (the engine reports a known service under an unknown suffix by its
 * fingerprint), or, for a bare word (`dnsmadeeasy`), by a pattern that holds it.
 */
export function reached(pattern: string, field: 'cname' | 'ns'): Entry[] {
  const host = sample(pattern);
  const found =
    field === 'cname' ? [...entriesForCname(host), ...entriesForRegistrable(host)] : entriesForNs(host);
  if (found.length > 0 || pattern.includes('.')) return [...new Set(found)];
  return catalogue.filter((e) => e[field].some((p) => p.includes(pattern)));
}

const lower = (texts: readonly string[]) => texts.map((t) => t.toLowerCase());
/** Matchers on the page's text: the body, its title, a regular expression's literal text. */
const BODY_PARTS = new Set(['body', 'title', 'regex']);

/**
 * The pages a reference describes, each as its words: one per choice of a word from each `or`
 * matcher, with every word of each `and` matcher.
 */
function pages(matchers: readonly ReferenceRow['words'][number][]): string[][] {
  let out: string[][] = [[]];
  for (const m of matchers) {
    const parts = m.condition === 'and' ? [m.words] : m.words.map((w) => [w]);
    out = out.flatMap((page) => parts.map((part) => [...page, ...lower(part)]));
  }
  return out;
}

/**
 * The entry reports this page: every body string, one variant, none of the negative evidence in
 * the page's text; or, as references quote more or less of a page than the entry does, every word
 * of the page and an evidence string contain one another.
 */
function recognises(entry: Entry, words: readonly string[]) {
  const http = entry.http;
  if (!http) return false;
  const page = words.join('\n');
  if (lower(entry.negative.body).some((t) => page.includes(t))) return false;
  // Letters and digits only: sources write the same words with other punctuation (`no such app`, `no-such-app`).
  const bare = (t: string) => t.replace(/[^\p{L}\p{N}]/gu, '');
  // A generic sentence is a variant too: the rows reach the entry by its own suffixes.
  const variants = [...http.anyBody, ...http.generic];
  const evidence = lower([...http.body, ...variants]).map(bare);
  if (words.map(bare).every((w) => evidence.some((t) => t.includes(w) || w.includes(t)))) return true;
  if (!lower(http.body).every((t) => page.includes(t))) return false;
  return variants.length === 0 || lower(variants).some((t) => page.includes(t));
}

/**
 * What of one reference row the catalogue lacks: its patterns, then its matchers: every page the
 * row describes is reported by an entry the row reaches, a page its negative matchers name is not,
 * and its status codes are among the entry's. `citing`: the entries that cite the row's file,
 * which cover a template that names no target of its own.
 */
export function gaps(row: ReferenceRow, citing: readonly Entry[] = []): string[] {
  const out: string[] = [];
  const entries = new Set<Entry>(citing);
  const add = (what: string, found: readonly Entry[]) => {
    if (found.length === 0) out.push(what);
    for (const e of found) entries.add(e);
  };
  for (const cname of row.cnames) add(`cname ${cname}`, reached(cname, 'cname'));
  for (const ns of row.nameservers) add(`ns ${ns}`, reached(ns, 'ns'));
  for (const ip of row.ips ?? []) add(`ip ${ip}`, entriesForIp(ip));
  if (row.nxdomain) {
    if (![...entries].some((e) => e.dns === 'nxdomain')) out.push('nxdomain');
    return out;
  }
  if (entries.size === 0) return [...out, 'no catalogue entry'];
  const web = [...entries].filter((e) => e.http);
  const positive = row.words.filter((m) => BODY_PARTS.has(m.part) && !m.negative);
  if (positive.length === 0) return out;
  for (const page of pages(positive)) {
    const reporting = web.filter((e) => recognises(e, page));
    if (reporting.length === 0) {
      out.push(`page ${JSON.stringify(page)}`);
      continue;
    }
    for (const m of row.words.filter((x) => BODY_PARTS.has(x.part) && x.negative))
      for (const word of m.words)
        if (reporting.some((e) => recognises(e, [...page, word.toLowerCase()]))) out.push(`negative ${word}`);
    for (const code of row.status)
      if (!reporting.some((e) => !e.http?.status || e.http.status.includes(code))) out.push(`status ${code}`);
  }
  return out;
}
