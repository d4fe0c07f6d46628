import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CatalogueSource, Common } from './catalogue.ts';
import { gone, web, zone } from './catalogue.ts';
import type { Fingerprints } from './file.ts';
import { entriesForCname, entriesForIp, entriesForNs } from './match.ts';
import { type Entry, entrySchema } from './schema.ts';
import type { UpstreamRead, UpstreamRow, UpstreamSource } from './upstream.ts';

/**
 * The rows the catalogue excluded, each with its reason (`references/excluded.json`): an update
 * does not bring back what a review left out.
 */
const EXCLUDED = z
  .array(z.object({ source: z.string(), name: z.string(), reason: z.string() }))
  .parse(JSON.parse(readFileSync(new URL('./references/excluded.json', import.meta.url), 'utf8')));

/** What an update did with one upstream row, or with an entry an earlier update of it had added. */
export interface Change {
  kind: 'added' | 'removed' | 'status' | 'refused' | 'skipped';
  service: string;
  /** The row's source and name: where the change comes from. */
  from: string;
  detail: string;
}

/** The id prefix of entries an update of this source added (the bundled ones never carry it). */
const PREFIX: Record<UpstreamSource, string> = {
  'nuclei-templates': 'nuclei',
  BadDNS: 'baddns',
  'can-i-take-over-xyz': 'ciito',
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'service';

const strip = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Words any server's error page says: a status code, "Not Found", "404 - Page not found",
 * "403 Forbidden", "Bad Request", "Error". Alone they are no evidence of an unclaimed resource.
 */
export function isGenericToken(text: string) {
  const bare = strip(text).toLowerCase();
  return (
    bare.length < 8 ||
    /^(?:error\s*)?(?:\d{3})?[\s:–-]*(?:(?:page|file|site)\s+)?(?:not\s+found|forbidden|bad\s+request|unavailable|error|gone)?[.!]*$/.test(
      bare,
    )
  );
}

/** Why a row proves nothing by itself: its only page evidence is one generic token. */
function onlyGeneric(row: UpstreamRow): string | undefined {
  if (row.nxdomain || row.zoneMissing) return undefined;
  const evidence = [
    ...row.body,
    ...row.anyBody,
    ...row.headers,
    ...row.httpStatus.map((code) => `HTTP ${code}`),
  ];
  if (evidence.length > 1) return undefined;
  if (evidence.length === 0) return 'it gives no evidence at all';
  const [only] = evidence as [string];
  return isGenericToken(only.replace(/^HTTP /, ''))
    ? `its only evidence is "${only}", which any server may answer`
    : undefined;
}

/** The newest date an entry's sources give: what a newer upstream row is compared with. */
const newest = (entry: Entry) =>
  entry.sources
    .map((s) => s.date)
    .sort()
    .at(-1) ?? entry.reviewed;

/** A pattern the catalogue can hold: a host-name suffix (a reference may write a bare word). */
const HOST_SUFFIX = /^[a-z0-9*-]+(\.[a-z0-9*-]+)+$/;

/**
 * The catalogue entries a row is about: by its targets (a bare word, `awsdns`, by the patterns
 * holding it; a row's whole domain by the entries of its narrower suffixes); a row without a
 * host-name target by the entries citing its file or thread, or of its service's name.
 */
function covering(row: UpstreamRow, entries: readonly Entry[]): Entry[] {
  const found = new Set<Entry>();
  const add = (list: readonly Entry[]) => {
    for (const e of list) found.add(e);
  };
  for (const [field, patterns] of [
    ['cname', row.cnames],
    ['ns', row.nameservers],
  ] as const) {
    for (const pattern of patterns) {
      if (!pattern.includes('.')) {
        add(entries.filter((e) => e[field].some((p) => p.includes(pattern))));
        continue;
      }
      const host = `dw-sample.${pattern}`;
      add(field === 'cname' ? entriesForCname(host, entries) : entriesForNs(host, entries));
      add(entries.filter((e) => e[field].some((p) => p.endsWith(`.${pattern}`))));
    }
  }
  for (const ip of row.ips) add(entriesForIp(ip, entries));
  // A row with a target of its own that no entry reaches is new, whatever its service is called.
  if (
    found.size > 0 ||
    row.ips.length > 0 ||
    [...row.cnames, ...row.nameservers].some((p) => HOST_SUFFIX.test(p))
  )
    return [...found];
  const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const service = bare(row.service);
  return entries.filter(
    (e) =>
      bare(e.service) === service ||
      e.sources.some((s) => s.url.endsWith(`/${row.name}`) || row.refs.includes(s.url)),
  );
}

/** Where a row was read: the table itself, or the folder's file of the template or signature. */
const sourceUrl = (row: UpstreamRow, origin: CatalogueSource) =>
  row.source === 'can-i-take-over-xyz'
    ? origin.url
    : `${origin.url.replace(/\/$/, '')}/${row.name.split('/').at(-1)}`;

/** A new entry from a row no catalogue entry covers, dated and sourced by the update. */
function entryOf(row: UpstreamRow, id: string, origin: CatalogueSource): Entry {
  const common: Common = {
    id,
    service: row.service,
    status: row.status,
    reason: `${row.source} lists ${row.service} as ${row.status} (${row.name}, read ${origin.date})`,
    resource: 'resource',
    claim: `creating the ${row.service} resource this name points at under another account`,
    sources: [{ url: sourceUrl(row, origin), date: origin.date }],
    notCname: row.notCnames.filter((p) => HOST_SUFFIX.test(p)),
  };
  const built = row.zoneMissing
    ? zone({ ...common, ns: row.nameservers.filter((p) => HOST_SUFFIX.test(p)) })
    : row.nxdomain
      ? gone({ ...common, cname: row.cnames.filter((p) => HOST_SUFFIX.test(p)) })
      : web({
          ...common,
          cname: row.cnames.filter((p) => HOST_SUFFIX.test(p)),
          ips: row.ips,
          body: row.body,
          anyBody: row.anyBody,
          httpStatus: row.httpStatus.length > 0 ? row.httpStatus : undefined,
        });
  return entrySchema.parse({ ...built, reviewed: origin.date });
}

/**
 * The catalogue after reading one upstream source: its rows no entry covers are added (an earlier
 * update's entries of this source replaced), an entry whose status a newer row of the table
 * contradicts takes that status, entries an earlier update of this source added but the source no
 * longer lists are removed, and a row whose only evidence is one generic token is refused.
 */
export function applyUpstream(
  current: Fingerprints,
  read: UpstreamRead,
  origin: CatalogueSource,
): { next: Fingerprints; changes: Change[] } {
  const prefix = `${PREFIX[read.source]}-`;
  const earlier = new Map(current.entries.filter((e) => e.id.startsWith(prefix)).map((e) => [e.id, e]));
  const kept = current.entries.filter((e) => !e.id.startsWith(prefix));
  const changes: Change[] = [];
  const added: Entry[] = [];
  const taken = new Set(kept.map((e) => e.id));
  for (const row of read.rows) {
    const from = `${row.source} ${row.name}`;
    const excluded = EXCLUDED.find((e) => e.source === row.source && e.name === row.name);
    if (excluded) {
      changes.push({ kind: 'skipped', service: row.service, from, detail: `excluded: ${excluded.reason}` });
      continue;
    }
    const known = covering(row, kept);
    if (known.length > 0) {
      // Only the table states a status; a template or signature exists for takeovers only.
      if (row.source !== 'can-i-take-over-xyz') continue;
      for (const entry of known) {
        if (entry.status === row.status || newest(entry) >= origin.date) continue;
        const index = kept.indexOf(entry);
        kept[index] = {
          ...entry,
          status: row.status,
          reason: `${row.source} (${origin.date}) lists ${row.service} as ${row.status}, newer than the ${entry.status} of ${newest(entry)}`,
          sources: [...entry.sources, { url: origin.url, date: origin.date }],
        };
        changes.push({
          kind: 'status',
          service: entry.service,
          from,
          detail: `${entry.status} → ${row.status}`,
        });
      }
      continue;
    }
    // A negative signature names a service nobody can claim: the known-safe list holds them.
    if (row.status === 'not-vulnerable' && row.source === 'BadDNS') {
      changes.push({ kind: 'skipped', service: row.service, from, detail: 'a negative signature' });
      continue;
    }
    const refused = row.status === 'vulnerable' ? onlyGeneric(row) : undefined;
    if (refused) {
      changes.push({ kind: 'refused', service: row.service, from, detail: refused });
      continue;
    }
    const targets = [...row.cnames, ...row.nameservers].filter((p) => HOST_SUFFIX.test(p));
    if (targets.length + row.ips.length === 0) {
      changes.push({
        kind: 'skipped',
        service: row.service,
        from,
        detail: 'it names no host-name target of its own, and no entry is of it',
      });
      continue;
    }
    let id = `${prefix}${slug(row.service)}`;
    for (let n = 2; taken.has(id); n++) id = `${prefix}${slug(row.service)}-${n}`;
    taken.add(id);
    const entry = entryOf(row, id, origin);
    added.push(entry);
    const before = earlier.get(id);
    earlier.delete(id);
    if (!before)
      changes.push({
        kind: 'added',
        service: row.service,
        from,
        detail: [...targets, ...row.ips].join(', '),
      });
    else if (before.status !== entry.status)
      changes.push({
        kind: 'status',
        service: row.service,
        from,
        detail: `${before.status} → ${entry.status}`,
      });
  }
  for (const entry of earlier.values())
    changes.push({
      kind: 'removed',
      service: entry.service,
      from: `${read.source} (an earlier update)`,
      detail: `${read.source} no longer lists it`,
    });
  const sources = [...current.sources.filter((s) => s.name !== origin.name), origin];
  return { next: { sources, entries: [...kept, ...added] }, changes };
}
