import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request, textOf } from '../connectors/http/client.ts';
import { ConnectorError } from '../connectors/http/error.ts';
import { FINGERPRINTS_DOWNLOAD } from '../core/limits.ts';
import type { CatalogueSource } from '../scanner/fingerprints/catalogue.ts';
import { type Fingerprints, loadFingerprints } from '../scanner/fingerprints/file.ts';
import { applyUpstream, type Change } from '../scanner/fingerprints/update.ts';
import { ciitoRows, readUpstream } from '../scanner/fingerprints/upstream.ts';
import { type Config, loadConfig } from '../start/config.ts';
import { fingerprintsFilePath, fingerprintsUpdateTarget } from '../start/fingerprints.ts';

const USAGE = `Usage: danglewatch fingerprints [show]
       danglewatch fingerprints update <path|url> [--date YYYY-MM-DD]

The takeover fingerprints scans judge names by, with the sources they were read from and the date
of each. Without an update, the bundled catalogue is used. 'update' reads one upstream copy: a
nuclei-templates checkout or its http/takeovers/ folder, a BadDNS checkout or its signatures/
folder, or can-i-take-over-xyz's fingerprints.json (a file or its URL), and writes the catalogue
into FINGERPRINTS_FILE (default DATA_DIR/fingerprints.json). It prints what changed: rows added,
entries removed, statuses changed, rows refused (one generic token is no evidence) and skipped.
A URL must be https:// (a raw GitHub address, say): its host is resolved through SCAN_RESOLVERS,
a private address is refused, no redirect is followed, and the answer is read to ${FINGERPRINTS_DOWNLOAD.maxBytes / 2 ** 20} MB within ${FINGERPRINTS_DOWNLOAD.timeoutMs / 1000} s.
--date: the date of what was read (its commit's); default, the newest file's modification day.
Running workers use the new file from their next scan.
`;

function show(current: Fingerprints, path: string | undefined): string {
  const lines = [`Fingerprints from ${path ?? 'the bundled catalogue'}: ${current.entries.length} services`];
  for (const source of current.sources)
    lines.push(`  ${source.name.padEnd(22)}${source.date}  ${source.url}`);
  return `${lines.join('\n')}\n`;
}

/**
 * An upstream file at a URL, through the one outside-HTTP client: a host the operator typed, so
 * resolved through SCAN_RESOLVERS and refused at a private address (SCAN_ALLOW_PRIVATE lets tests
 * reach loopback), https:// only, no redirect followed, read to the download bound within its deadline.
 */
async function download(url: string, config: Config): Promise<string> {
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request({
      provider: new URL(url).hostname,
      url,
      userHost: { resolvers: config.SCAN_RESOLVERS ?? [], allowPrivate: config.SCAN_ALLOW_PRIVATE },
      maxBytes: FINGERPRINTS_DOWNLOAD.maxBytes,
      timeoutMs: FINGERPRINTS_DOWNLOAD.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    throw new Error(`${url}: ${error.message}${error.detail ? ` (${error.detail})` : ''}`);
  }
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${url} answered ${answer.status}`);
  return textOf(answer);
}

/**
 * The date of what was read: the last commit of those files when they are in a git checkout (a
 * fresh clone's files all carry the day of the clone), else the newest file's modification day,
 * else today (a download).
 */
function dateOf(files: readonly string[]): string {
  if (files.length === 0) return new Date().toISOString().slice(0, 10);
  try {
    const day = execFileSync('git', ['log', '-1', '--format=%cs', '--', ...files.map((f) => basename(f))], {
      cwd: dirname(files[0] as string),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  } catch {
    // Not a checkout, or no git: the files' own dates follow.
  }
  const newest = Math.max(...files.map((file) => statSync(file).mtimeMs));
  return new Date(newest).toISOString().slice(0, 10);
}

const LABEL: Record<Change['kind'], string> = {
  added: 'added',
  removed: 'removed',
  status: 'status changed',
  refused: 'refused',
  skipped: 'skipped',
};

function report(changes: readonly Change[]): string {
  const counts = (Object.keys(LABEL) as Change['kind'][])
    .map((kind) => `${changes.filter((c) => c.kind === kind).length} ${LABEL[kind]}`)
    .join(', ');
  const lines = changes.map((c) => `  ${LABEL[c.kind].padEnd(15)}${c.service}: ${c.detail} (${c.from})`);
  return `${counts}\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`;
}

/** `danglewatch fingerprints [show]` and `danglewatch fingerprints update <path|url>`. */
export async function fingerprintsCommand(args: string[]): Promise<number> {
  const [action = 'show', ...rest] = args;
  if (action === '--help' || action === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (action === 'show' && rest.length === 0) {
    const path = fingerprintsFilePath(config);
    process.stdout.write(show(loadFingerprints(path), path));
    return 0;
  }
  const dateAt = rest.indexOf('--date');
  const date = dateAt >= 0 ? rest[dateAt + 1] : undefined;
  const operands = dateAt >= 0 ? rest.filter((_, i) => i !== dateAt && i !== dateAt + 1) : rest;
  const [source] = operands;
  if (
    action !== 'update' ||
    !source ||
    operands.length > 1 ||
    (dateAt >= 0 && !/^\d{4}-\d{2}-\d{2}$/.test(date ?? ''))
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  let read: ReturnType<typeof readUpstream>;
  let url: string;
  if (/^https?:\/\//i.test(source)) {
    // A URL is can-i-take-over-xyz's fingerprints.json: a folder of templates has no one address.
    read = {
      source: 'can-i-take-over-xyz',
      rows: ciitoRows(await download(source, config)),
      where: source,
      files: [],
    };
    url = source;
  } else {
    read = readUpstream(source);
    url = pathToFileURL(resolve(read.where)).href;
  }
  const origin: CatalogueSource = { name: read.source, url, date: date ?? dateOf(read.files) };
  const target = fingerprintsUpdateTarget(config);
  const current = loadFingerprints(fingerprintsFilePath(config));
  const { next, changes } = applyUpstream(current, read, origin);
  mkdirSync(dirname(target), { recursive: true });
  // Written beside the target and renamed over it: a worker reading meanwhile sees the old or the new.
  writeFileSync(`${target}.tmp`, `${JSON.stringify({ version: 1, ...next }, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
  process.stdout.write(
    `${read.source} (${origin.date}, ${read.rows.length} rows from ${source}): ${report(changes)}Written to ${target}: ${next.entries.length} services. Running workers use it from their next scan.\n`,
  );
  return 0;
}
