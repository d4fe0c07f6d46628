import { registrableDomain } from '../discover/rdap.ts';
import type { Response } from '../http/probe.ts';
import { catalogue } from './catalogue.ts';
import type { Entry } from './schema.ts';

interface Compiled {
  /** The literal labels after the last wildcard label, with a leading dot: a cheap first filter. */
  tail: string;
  labels: RegExp[] | undefined;
  /** The pattern is a provider's registrable domain (`herokuapp.com`): its apex is the provider's own host. */
  apex: boolean;
}

const compiled = new Map<string, Compiled>();

function compile(pattern: string): Compiled {
  let c = compiled.get(pattern);
  if (!c) {
    const labels = pattern.split('.');
    const lastWild = labels.findLastIndex((label) => label.includes('*'));
    c = {
      apex: lastWild < 0 && registrableDomain(pattern) === pattern,
      tail: `.${labels.slice(lastWild + 1).join('.')}`,
      labels:
        lastWild < 0
          ? undefined
          : labels.map(
              (label) =>
                new RegExp(`^${label.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[a-z0-9-]+')}$`),
            ),
    };
    compiled.set(pattern, c);
  }
  return c;
}

/** True when `host` is `pattern` or a name below it; `*` inside a label matches [a-z0-9-]+. */
export function matchesSuffix(host: string, pattern: string) {
  const c = compile(pattern);
  if (!c.labels) return host === pattern || host.endsWith(c.tail);
  if (!host.endsWith(c.tail)) return false;
  const hostLabels = host.split('.');
  if (hostLabels.length < c.labels.length) return false;
  const offset = hostLabels.length - c.labels.length;
  return c.labels.every((re, i) => re.test(hostLabels[offset + i] as string));
}

/**
 * A record's target at the service: below the pattern, or the pattern itself when that is a fixed
 * host (`cname.announcekit.app`). A provider's own apex (`herokuapp.com`, `digitalocean.com`) is its
 * web site or its company, never an app, a bucket or a nameserver somebody could claim.
 */
function targetsService(host: string, pattern: string) {
  return matchesSuffix(host, pattern) && !(host === pattern && compile(pattern).apex);
}

type Field = 'cname' | 'ns' | 'mx';

/**
 * The patterns of a catalogue by their last two labels, so a host is compared with the few
 * patterns of its own domain instead of every pattern (the scan asks for each name and hop).
 * Patterns with a wildcard in those labels (`awsdns-*.com`) are compared with every host.
 */
interface Index {
  byTail: Record<Field, Map<string, Array<[Entry, string]>>>;
  anyTail: Record<Field, Array<[Entry, string]>>;
  byIp: Map<string, Entry[]>;
}

const indexes = new WeakMap<readonly Entry[], Index>();
/** The last two labels of a name (the name itself when it has fewer), read without splitting it. */
function tailOf(name: string) {
  const last = name.lastIndexOf('.');
  return last < 0 ? name : name.slice(name.lastIndexOf('.', last - 1) + 1);
}

function indexOf(entries: readonly Entry[]): Index {
  const index = indexes.get(entries);
  if (index) return index;
  const fresh: Index = {
    byTail: { cname: new Map(), ns: new Map(), mx: new Map() },
    anyTail: { cname: [], ns: [], mx: [] },
    byIp: new Map(),
  };
  for (const entry of entries) {
    for (const field of ['cname', 'ns', 'mx'] as const) {
      for (const pattern of entry[field]) {
        const tail = tailOf(pattern);
        if (tail.includes('*')) {
          fresh.anyTail[field].push([entry, pattern]);
          continue;
        }
        const list = fresh.byTail[field].get(tail) ?? [];
        list.push([entry, pattern]);
        fresh.byTail[field].set(tail, list);
      }
    }
    for (const ip of entry.ips) fresh.byIp.set(ip, [...(fresh.byIp.get(ip) ?? []), entry]);
  }
  indexes.set(entries, fresh);
  return fresh;
}

const NONE: Array<[Entry, string]> = [];

/**
 * The patterns of `field` that may match `host`, in two lists: those of its last two labels and
 * those compared with every host (every name and hop asks this, so the lists are not joined).
 */
function candidates(field: Field, host: string, entries: readonly Entry[]) {
  const index = indexOf(entries);
  return [index.byTail[field].get(tailOf(host)) ?? NONE, index.anyTail[field]] as const;
}

/** Entries in catalogue order, each once. */
function inOrder(entries: readonly Entry[], matched: Set<Entry>) {
  return matched.size === 0 ? [] : entries.filter((entry) => matched.has(entry));
}

/** A CNAME target the entry's `notCname` patterns take out of it. */
const excludedTarget = (entry: Entry, host: string) =>
  entry.notCname.length > 0 && entry.notCname.some((pattern) => matchesSuffix(host, pattern));

function byField(field: Field, host: string, entries: readonly Entry[]) {
  const matched = new Set<Entry>();
  for (const list of candidates(field, host, entries))
    for (const [entry, pattern] of list)
      if (targetsService(host, pattern) && !(field === 'cname' && excludedTarget(entry, host)))
        matched.add(entry);
  return inOrder(entries, matched);
}

export const entriesForCname = (host: string, entries = catalogue) => byField('cname', host, entries);
export const entriesForNs = (host: string, entries = catalogue) => byField('ns', host, entries);
export const entriesForMx = (host: string, entries = catalogue) => byField('mx', host, entries);
const NO_ENTRIES: readonly Entry[] = [];
export const entriesForIp = (ip: string, entries = catalogue): readonly Entry[] =>
  indexOf(entries).byIp.get(ip) ?? NO_ENTRIES;

/** A name that belongs to a service itself (say, something.github.io) is the service's, not the user's. */
export function isServiceHost(host: string, entries = catalogue) {
  // Loops, not callbacks: every name of a scan is asked this.
  for (const list of candidates('cname', host, entries))
    for (const [, pattern] of list) if (matchesSuffix(host, pattern)) return true;
  return false;
}

const byRegistrable = new WeakMap<readonly Entry[], Map<string, Entry[]>>();

/**
 * Web entries (HTTP evidence, not `not-vulnerable`) whose documented CNAME suffixes lie in the
 * registrable domain of `host`: the service, under a suffix the references do not (yet) document.
 * Services move their custom-domain targets; the fingerprint still has to match.
 */
export function entriesForRegistrable(host: string, entries = catalogue): Entry[] {
  let index = byRegistrable.get(entries);
  if (!index) {
    index = new Map();
    for (const entry of entries) {
      if (entry.dns !== 'resolves' || entry.status === 'not-vulnerable') continue;
      for (const pattern of entry.cname) {
        const domain = registrableDomain(pattern.replace(/\*/g, 'x'));
        if (!domain) continue;
        const list = index.get(domain) ?? [];
        if (!list.includes(entry)) list.push(entry);
        index.set(domain, list);
      }
    }
    byRegistrable.set(entries, index);
  }
  if (index.size === 0) return [];
  const domain = registrableDomain(host);
  return ((domain && index.get(domain)) || []).filter((entry) => !excludedTarget(entry, host));
}

/**
 * Whether one response carries the entry's evidence: status, every body string, one of the
 * variants, every header, all together, and none of the negative evidence. Returns what matched, for the evidence chain.
 * `own`: the record points at the service's own suffix or address, where its generic sentences
 * (words any 404 could say) count as variants; elsewhere they never do, and an entry whose page
 * only they describe shows no evidence.
 */
export function evidenceIn(entry: Entry, response: Response, own = true): string | undefined {
  const http = entry.http;
  if (!http) return undefined;
  if (http.status && !http.status.includes(response.status)) return undefined;
  if (!http.body.every((text) => response.body.includes(text))) return undefined;
  const variant = http.anyBody.find((text) => response.body.includes(text));
  const generic =
    variant === undefined && own ? http.generic.find((text) => response.body.includes(text)) : undefined;
  if (http.anyBody.length + http.generic.length > 0 && variant === undefined && generic === undefined)
    return undefined;
  for (const header of http.headers) {
    if (!response.headers[header.name.toLowerCase()]?.includes(header.contains)) return undefined;
  }
  if (entry.negative.body.some((text) => response.body.includes(text))) return undefined;
  if (entry.negative.headers.some((name) => response.headers[name.toLowerCase()] !== undefined))
    return undefined;
  const shown = [...http.body, ...(variant === undefined ? [] : [variant])].map((text) => `"${text}"`);
  if (generic !== undefined)
    shown.push(
      `"${generic}" (words any 404 could say, counted as the name points at ${entry.service} itself)`,
    );
  const quoted = shown.length > 0 ? ` with ${shown.join(' and ')}` : '';
  return `${response.url} (${response.address}) answered ${response.status}${quoted}`;
}
