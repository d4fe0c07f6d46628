import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/*
 * The three upstream formats `danglewatch fingerprints update` reads, each into the same rows: a
 * nuclei-templates `http/takeovers/` folder (one YAML template per service), a BadDNS `signatures/`
 * folder (one YAML signature per service) and can-i-take-over-xyz's `fingerprints.json`.
 */

export const UPSTREAM_SOURCES = ['nuclei-templates', 'BadDNS', 'can-i-take-over-xyz'] as const;
export type UpstreamSource = (typeof UPSTREAM_SOURCES)[number];

/** One upstream row: a template, a signature or a line of the table, as our catalogue reads it. */
export interface UpstreamRow {
  source: UpstreamSource;
  /** The file (templates, signatures) or the service's name (the table): how the source names it. */
  name: string;
  service: string;
  /** What the source says of the service; a template or signature only exists for a takeover. */
  status: 'vulnerable' | 'edge' | 'not-vulnerable';
  cnames: string[];
  notCnames: string[];
  nameservers: string[];
  /** Addresses the service's custom domains point at (a table's cell may hold one). */
  ips: string[];
  /** The threads the source links for the row (the table's discussion cell). */
  refs: string[];
  /** The evidence is that the CNAME target does not exist. */
  nxdomain: boolean;
  /** The delegated nameservers no longer hold the zone. */
  zoneMissing: boolean;
  /** Every one of these in the page. */
  body: string[];
  /** One of these in the page. */
  anyBody: string[];
  httpStatus: number[];
  /** Header words the source matches too (evidence we do not read, but count as evidence). */
  headers: string[];
}

const empty = (source: UpstreamSource, name: string, service: string): UpstreamRow => ({
  source,
  name,
  service,
  status: 'vulnerable',
  cnames: [],
  notCnames: [],
  nameservers: [],
  ips: [],
  refs: [],
  nxdomain: false,
  zoneMissing: false,
  body: [],
  anyBody: [],
  httpStatus: [],
  headers: [],
});

/** A matcher of a nuclei template or a BadDNS signature (both write nuclei's matcher syntax). */
const matcherSchema = z
  .object({
    type: z.string(),
    part: z.string().optional(),
    condition: z.enum(['and', 'or']).optional(),
    negative: z.boolean().optional(),
    words: z.array(z.coerce.string()).optional(),
    status: z.union([z.number(), z.array(z.number())]).optional(),
  })
  .loose();
type Matcher = z.infer<typeof matcherSchema>;

const suffixOf = (word: string) =>
  word
    .trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, '');

/** What a row's matchers require, all together (`matchers-condition: and`, as takeover templates say). */
function readMatchers(row: UpstreamRow, matchers: readonly Matcher[]) {
  for (const m of matchers) {
    if (m.negative) continue;
    if (m.type === 'status') row.httpStatus.push(...[m.status ?? []].flat());
    if (m.type !== 'word' || !m.words?.length) continue;
    const part = m.part ?? 'body';
    if (part === 'cname') row.cnames.push(...m.words.map(suffixOf));
    else if (part === 'header') row.headers.push(...m.words);
    else if (part === 'body' || part === 'title') {
      // One `or` list is the page's variants; every further list's words must all appear.
      if (m.condition === 'and' || m.words.length === 1 || row.anyBody.length > 0) row.body.push(...m.words);
      else row.anyBody.push(...m.words);
    }
  }
}

const nucleiSchema = z
  .object({
    id: z.string(),
    info: z.object({ name: z.string() }).loose(),
    http: z.array(z.object({ matchers: z.array(matcherSchema).default([]) }).loose()).min(1),
  })
  .loose();

/** A nuclei template's service: its name without "Takeover Detection" and the like. */
const serviceOf = (name: string) =>
  name.replace(/\s*[-–]?\s*(subdomain\s+)?takeover(\s+detection)?\s*$/i, '').trim() || name;

/** One template of nuclei-templates' `http/takeovers/`. */
export function nucleiRow(file: string, text: string): UpstreamRow {
  const template = nucleiSchema.parse(parseYaml(text));
  const row = empty('nuclei-templates', `http/takeovers/${basename(file)}`, serviceOf(template.info.name));
  readMatchers(
    row,
    template.http.flatMap((request) => request.matchers),
  );
  return row;
}

const baddnsSchema = z
  .object({
    service_name: z.string(),
    mode: z.enum(['http', 'dns_nxdomain', 'dns_nosoa']),
    negative_signature: z.boolean().default(false),
    identifiers: z
      .object({
        cnames: z.array(z.object({ value: z.string() }).loose()).nullish(),
        not_cnames: z.array(z.union([z.string(), z.object({ value: z.string() }).loose()])).nullish(),
        nameservers: z.array(z.string()).nullish(),
      })
      .loose(),
    matcher_rule: z
      .object({ matchers: z.array(matcherSchema).default([]) })
      .loose()
      .nullish(),
  })
  .loose();

/** One signature of BadDNS's `signatures/`; a negative one is a service nobody can claim. */
export function baddnsRow(file: string, text: string): UpstreamRow {
  const signature = baddnsSchema.parse(parseYaml(text));
  const row = empty('BadDNS', basename(file), serviceOf(signature.service_name));
  const ids = signature.identifiers;
  row.cnames = (ids.cnames ?? []).map((c) => suffixOf(c.value));
  row.notCnames = (ids.not_cnames ?? []).map((c) => suffixOf(typeof c === 'string' ? c : c.value));
  row.nameservers = (ids.nameservers ?? []).map(suffixOf);
  row.nxdomain = signature.mode === 'dns_nxdomain';
  row.zoneMissing = signature.mode === 'dns_nosoa';
  if (signature.negative_signature) row.status = 'not-vulnerable';
  readMatchers(row, signature.matcher_rule?.matchers ?? []);
  return row;
}

const ciitoSchema = z.array(
  z
    .object({
      service: z.string(),
      status: z.string(),
      cname: z.array(z.string()).default([]),
      discussion: z.string().default(''),
      fingerprint: z.string().default(''),
      http_status: z.number().nullish(),
      nxdomain: z.boolean().default(false),
    })
    .loose(),
);

const CIITO_STATUS: Record<string, UpstreamRow['status']> = {
  vulnerable: 'vulnerable',
  'edge case': 'edge',
  'not vulnerable': 'not-vulnerable',
};

/** can-i-take-over-xyz's `fingerprints.json`: a row per service of its README table. */
export function ciitoRows(text: string): UpstreamRow[] {
  return ciitoSchema.parse(JSON.parse(text)).flatMap((line) => {
    const status = CIITO_STATUS[line.status.trim().toLowerCase()];
    if (!status) return [];
    const row = empty('can-i-take-over-xyz', line.service, line.service);
    row.status = status;
    // A cell may hold a URL or prose instead of a pattern: only host-name suffixes are targets.
    const cells = line.cname.map(suffixOf);
    row.ips = cells.filter((c) => isIP(c) !== 0);
    row.cnames = cells.filter((c) => isIP(c) === 0 && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(c));
    row.refs = [...line.discussion.matchAll(/\((https:\/\/github\.com\/[^)\s]+)\)/g)].map(
      (m) => m[1] as string,
    );
    row.nxdomain = line.nxdomain;
    if (!line.nxdomain && line.fingerprint.trim()) row.body = [line.fingerprint.trim()];
    if (line.http_status) row.httpStatus = [line.http_status];
    return [row];
  });
}

/** The files of a folder with these endings, sorted. */
const filesIn = (dir: string, endings: RegExp) =>
  readdirSync(dir)
    .filter((f) => endings.test(f))
    .sort()
    .map((f) => join(dir, f));

export interface UpstreamRead {
  source: UpstreamSource;
  rows: UpstreamRow[];
  /** The file or folder read (a checkout's `http/takeovers/` or `baddns/signatures/`). */
  where: string;
  /** The files read, for the date of what was read. */
  files: string[];
}

/**
 * Reads a local upstream copy: a nuclei-templates checkout or its `http/takeovers/`, a BadDNS
 * checkout or its `signatures/`, or can-i-take-over-xyz's `fingerprints.json` (any `.json` file).
 */
export function readUpstream(path: string): UpstreamRead {
  if (!statSync(path).isDirectory())
    return {
      source: 'can-i-take-over-xyz',
      rows: ciitoRows(readFileSync(path, 'utf8')),
      where: path,
      files: [path],
    };
  for (const [sub, source] of [
    ['http/takeovers', 'nuclei-templates'],
    ['baddns/signatures', 'BadDNS'],
  ] as const)
    if (existsSync(join(path, sub))) return readFolder(join(path, sub), source);
  const yml = filesIn(path, /\.ya?ml$/);
  const first = yml[0] ? readFileSync(yml[0], 'utf8') : '';
  if (/^identifiers:/m.test(first)) return readFolder(path, 'BadDNS');
  if (/^http:/m.test(first)) return readFolder(path, 'nuclei-templates');
  throw new Error(
    `${path}: neither a nuclei-templates http/takeovers/ folder, a BadDNS signatures/ folder nor can-i-take-over-xyz's fingerprints.json`,
  );
}

function readFolder(dir: string, source: UpstreamSource): UpstreamRead {
  const files = filesIn(dir, /\.ya?ml$/);
  const rows = files.map((file) => {
    const text = readFileSync(file, 'utf8');
    try {
      return source === 'BadDNS' ? baddnsRow(file, text) : nucleiRow(file, text);
    } catch (error) {
      const issue = error instanceof z.ZodError ? error.issues[0] : undefined;
      const why = issue ? `${issue.path.join('.')}: ${issue.message}` : (error as Error).message;
      throw new Error(
        `${file} is not a ${source} ${source === 'BadDNS' ? 'signature' : 'template'} (${why})`,
      );
    }
  });
  return { source, rows, where: dir, files };
}
