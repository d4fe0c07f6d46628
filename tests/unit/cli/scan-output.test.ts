import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SOURCES, catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { evidencePage, FIXTURE_IP, noSuchBucketPage, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import { runCli } from '../../helpers/cli.ts';

const sarifSchema = JSON.parse(
  readFileSync(new URL('../../fixtures/schemas/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8'),
);
// The schema's language pattern is not valid with the u flag; read it as the schema's authors did.
const validateSarif = new Ajv({
  allErrors: true,
  strict: false,
  unicodeRegExp: false,
  logger: false,
}).compile(sarifSchema);

const apex = 'pipeline.test';
const BUCKET = `docs.${apex}.s3-website-us-east-1.amazonaws.com`;
const entry = (id: string) => {
  const found = catalogue.find((e) => e.id === id);
  if (!found) throw new Error(`no catalogue entry ${id}`);
  return found;
};
// One finding of each status: claimable (an S3 bucket that S3 says does not exist: the proof needs
// no credentials), likely (Surge.sh, claimable by its page but with no provider check to prove it), review (a CNAME
// to a missing name of a registered domain outside the catalogue).
const zone = zoneFrom({
  apex,
  records: [
    [`docs.${apex}`, { type: 'CNAME', data: BUCKET }],
    [BUCKET, { type: 'A', data: FIXTURE_IP }],
    [`app.${apex}`, { type: 'CNAME', data: 'dw-app.surge.sh' }],
    ['dw-app.surge.sh', { type: 'A', data: FIXTURE_IP }],
    [`stale.${apex}`, { type: 'CNAME', data: 'gone.dw-elsewhere.com' }],
  ],
});

let fixtures: ScanFixtures;
let dir: string;

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  fixtures.web.site = (host) =>
    host === `docs.${apex}`
      ? evidencePage(entry('aws-s3'))
      : host === BUCKET
        ? noSuchBucketPage(`docs.${apex}`)
        : host === `app.${apex}`
          ? evidencePage(entry('surge'))
          : undefined;
  dir = mkdtempSync(join(tmpdir(), 'dw-output-'));
  writeFileSync(join(dir, 'names.txt'), `docs.${apex}\napp.${apex}\nstale.${apex}\n`);
});
afterAll(async () => {
  await fixtures?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * `danglewatch scan` in this process, against the fixtures only; DATA_DIR is the test's own, which
 * holds no fingerprints file unless a test writes one (`env` may point elsewhere).
 */
const run = (args: string[], env: Record<string, string> = { DATA_DIR: dir }) =>
  runCli(
    [
      'scan',
      apex,
      ...fixtures.cliFlags(),
      '--no-discovery',
      '--subdomains',
      join(dir, 'names.txt'),
      '--timeout-ms',
      '1500',
      ...args,
    ],
    env,
  );

const file = (name: string) => join(dir, name);

describe('danglewatch scan: output for pipelines', { timeout: 60_000 }, () => {
  it('finds one finding of each status (the ground the other cases stand on)', async () => {
    const { code, stdout } = await run(['--format', 'json', '--output', file('all.json')]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const doc = JSON.parse(readFileSync(file('all.json'), 'utf8'));
    const status = Object.fromEntries(
      doc.findings.map((f: { subdomain: string; status: string }) => [f.subdomain, f.status]),
    );
    expect(status).toEqual({
      [`docs.${apex}`]: 'claimable',
      [`app.${apex}`]: 'likely',
      [`stale.${apex}`]: 'review',
    });
    // Without a baseline the document is the contract's, nothing added.
    expect(doc.findings.every((f: object) => !('known' in f))).toBe(true);
  });

  it('--format sarif --output FILE: a valid SARIF 2.1.0 log, a summary on stderr, nothing on stdout', async () => {
    const { code, stdout, stderr } = await run(['--format', 'sarif', '--output', file('report.sarif')]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `danglewatch scan: 3 findings, 3 failing the run (--fail-on review); sarif report in ${file('report.sarif')}\n`,
    );
    const log = JSON.parse(readFileSync(file('report.sarif'), 'utf8'));
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    const levels = Object.fromEntries(
      log.runs[0].results.map(
        (r: { locations: { logicalLocations: { name: string }[] }[]; level: string }) => [
          r.locations[0]?.logicalLocations[0]?.name,
          r.level,
        ],
      ),
    );
    expect(levels).toEqual({
      [`docs.${apex}`]: 'error',
      [`app.${apex}`]: 'warning',
      [`stale.${apex}`]: 'note',
    });
    // GitHub's ingestion rules (GH1001, GH1003): each location a relative URI and a start line.
    for (const result of log.runs[0].results) {
      expect(result.locations[0].physicalLocation).toEqual({
        artifactLocation: { uri: `dns/${result.locations[0].logicalLocations[0].name}` },
        region: { startLine: 1 },
      });
    }
  });

  it("every format names the fingerprints' sources the verdicts rest on, each with its date", async () => {
    const json = JSON.parse((await run(['--json'])).stdout);
    expect(json.fingerprints).toEqual(CATALOGUE_SOURCES);
    const text = (await run([])).stdout;
    const newest = [...CATALOGUE_SOURCES].sort((a, b) => b.date.localeCompare(a.date))[0];
    expect(text).toMatch(new RegExp(`^Fingerprints: ${newest?.name} ${newest?.date}, `, 'm'));
    for (const source of CATALOGUE_SOURCES) expect(text).toContain(`${source.name} ${source.date}`);
    const log = JSON.parse((await run(['--format', 'sarif'])).stdout);
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(log.runs[0].tool.extensions).toEqual(
      CATALOGUE_SOURCES.map((s) => ({ name: s.name, informationUri: s.url, releaseDateUtc: s.date })),
    );
  });

  it("judges by the operator's updated catalogue where the server would read it, and refuses a bad one", async () => {
    const updated = mkdtempSync(join(tmpdir(), 'dw-output-data-'));
    try {
      const sources = [
        { name: 'can-i-take-over-xyz', url: 'https://example.org/fingerprints.json', date: '2026-11-28' },
      ];
      // The same entries as bundled, S3 retired: its finding is review now, the source named.
      const entries = catalogue.map((e) => (e.id === 'aws-s3' ? { ...e, status: 'retired' } : e));
      writeFileSync(join(updated, 'fingerprints.json'), JSON.stringify({ version: 1, sources, entries }));
      const json = JSON.parse((await run(['--json'], { DATA_DIR: updated })).stdout);
      expect(json.fingerprints).toEqual(sources);
      const docs = json.findings.find((f: { subdomain: string }) => f.subdomain === `docs.${apex}`);
      expect(docs.status).toBe('review');
      writeFileSync(join(updated, 'bad.json'), '{');
      const bad = await run(['--json'], { DATA_DIR: updated, FINGERPRINTS_FILE: join(updated, 'bad.json') });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^danglewatch scan: FINGERPRINTS_FILE: .*bad\.json cannot be read as JSON/);
    } finally {
      rmSync(updated, { recursive: true, force: true });
    }
  });

  it('--fail-on sets the least status that fails the run', async () => {
    expect((await run(['--quiet', '--fail-on', 'claimable'])).code).toBe(1);
    // Only the review finding left: it fails the default run and not a --fail-on likely one.
    const reviewOnly = `stale.${apex}\n`;
    writeFileSync(file('stale.txt'), reviewOnly);
    const only = (extra: string[]) => run(['--quiet', ...extra, '--subdomains', file('stale.txt')]);
    expect((await only([])).code).toBe(1);
    expect((await only(['--fail-on', 'likely'])).code).toBe(0);
    expect((await only(['--fail-on', 'claimable'])).code).toBe(0);
  });

  it('--baseline (JSON or SARIF): known findings are marked and do not fail the run; new ones do', async () => {
    await run(['--format', 'sarif', '--output', file('base.sarif')]);
    await run(['--json', '--output', file('base.json')]);
    for (const baseline of [file('base.sarif'), file('base.json')]) {
      const { code, stdout } = await run(['--json', '--baseline', baseline]);
      expect(code).toBe(0);
      const doc = JSON.parse(stdout);
      expect(doc.findings.map((f: { known: boolean }) => f.known)).toEqual([true, true, true]);
    }
    // A baseline that held only the claimable finding: the likely one is new.
    const partial = JSON.parse(readFileSync(file('base.json'), 'utf8'));
    partial.findings = partial.findings.filter((f: { status: string }) => f.status === 'claimable');
    writeFileSync(file('partial.json'), JSON.stringify(partial));
    expect((await run(['--quiet', '--baseline', file('partial.json'), '--fail-on', 'claimable'])).code).toBe(
      0,
    );
    const sarif = await run(['--format', 'sarif', '--baseline', file('partial.json'), '--fail-on', 'likely']);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(
      log.runs[0].results
        .map((r: { level: string; baselineState: string }) => [r.level, r.baselineState])
        .sort(),
    ).toEqual([
      ['error', 'unchanged'],
      ['note', 'new'],
      ['warning', 'new'],
    ]);
    const text = await run(['--baseline', file('partial.json')]);
    expect(text.stdout).toContain(`app.${apex}  CNAME → dw-app.surge.sh`);
    expect(text.stdout).toMatch(
      new RegExp(
        `Already in the baseline \\(1\\), not failing the run:\\n  docs\\.${apex.replace('.', '\\.')}  CNAME → docs\\.pipeline\\.test\\.s3-website-us-east-1\\.amazonaws\\.com`,
      ),
    );
  });

  it('--format csv: a header and a row per finding; with a baseline, a known column', async () => {
    const { stdout } = await run(['--format', 'csv', '--baseline', file('partial.json')]);
    const rows = stdout.trimEnd().split('\r\n');
    expect(rows[0]).toBe('domain,subdomain,record_type,target,service,status,risk,known,how_to_fix');
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.includes(`docs.${apex}`))).toMatch(
      new RegExp(
        `^${apex},docs\\.${apex},CNAME,docs\\.pipeline\\.test\\.s3-website-us-east-1\\.amazonaws\\.com,AWS S3,claimable,high,yes,`,
      ),
    );
  });

  it('--quiet: nothing on stdout or stderr, the exit code tells', async () => {
    const { code, stdout, stderr } = await run(['--quiet', '--output', file('quiet.json'), '--json']);
    expect([code, stdout, stderr]).toEqual([1, '', '']);
    expect(JSON.parse(readFileSync(file('quiet.json'), 'utf8')).findings).toHaveLength(3);
  });

  it.each([
    [['--format', 'xml'], "--format must be one of text, json, sarif, csv, got 'xml'"],
    [['--fail-on', 'high'], "--fail-on must be one of claimable, likely, review, got 'high'"],
    [['--json', '--format', 'csv'], '--json and --format csv disagree'],
    [['--baseline', '/nonexistent/base.json'], "--baseline '/nonexistent/base.json' cannot be read: ENOENT"],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(`danglewatch scan: ${message}\n`);
  });

  it('refuses a baseline that is no report of ours', async () => {
    writeFileSync(file('other.json'), JSON.stringify({ results: [] }));
    writeFileSync(file('broken.json'), '{');
    expect((await run(['--baseline', file('other.json')])).stderr).toContain(
      'is neither a DangleWatch JSON report',
    );
    expect((await run(['--baseline', file('broken.json')])).stderr).toContain('is not JSON');
  });
});
