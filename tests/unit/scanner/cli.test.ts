import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { evidencePage, FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import { runCli } from '../../helpers/cli.ts';

const BIN = join(import.meta.dirname, '../../../bin/danglewatch.js');
const apex = 'cli.test';
const surge = catalogue.find((e) => e.id === 'surge');
const records: Array<[string, FixtureRecord]> = [
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`docs.${apex}`, { type: 'CNAME', data: 'dw-docs.surge.sh' }],
  ['dw-docs.surge.sh', { type: 'A', data: FIXTURE_IP }],
  [`old.${apex}`, { type: 'CNAME', data: 'dw-old.azurewebsites.net' }],
  [`www.clean.test`, { type: 'A', data: FIXTURE_IP }],
];
const zone = zoneFrom({ apex, records });

let fixtures: ScanFixtures;
let dir: string;

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  if (surge) fixtures.web.site = (host) => (host === `docs.${apex}` ? evidencePage(surge) : undefined);
  dir = mkdtempSync(join(tmpdir(), 'dw-cli-'));
  writeFileSync(join(dir, 'words.txt'), '# labels\nwww\n\ndocs\n');
  writeFileSync(join(dir, 'names.txt'), `old.${apex}\n# a comment\n`);
});
afterAll(async () => {
  await fixtures?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The real command in a process of its own: exit code, stdout and stderr as a shell sees them. */
function runProcess(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, 'scan', ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 2) : 0, stdout, stderr });
    });
  });
}

const run = (args: string[]) => runCli(['scan', ...args]);

const fixtureFlags = () => [...fixtures.cliFlags(), '--timeout-ms', '1000', '--concurrency', '16'];

// The first case spawns the real command (on a busy machine a spawn alone can take seconds); the
// others run it in this process.
describe('danglewatch scan', { timeout: 60_000 }, () => {
  it('--json prints one document of the contract and exits 1 on findings', async () => {
    const { code, stdout } = await runProcess([
      apex,
      '--json',
      ...fixtureFlags(),
      '--wordlist',
      join(dir, 'words.txt'),
      '--subdomains',
      join(dir, 'names.txt'),
    ]);
    expect(code).toBe(1);
    const doc = JSON.parse(stdout);
    expect(Object.keys(doc).sort()).toEqual([
      'completedAt',
      'domain',
      'errors',
      'findings',
      'fingerprints',
      'startedAt',
      'subdomains',
    ]);
    expect(doc.domain).toBe(apex);
    expect(doc.subdomains).toEqual(expect.arrayContaining([`docs.${apex}`, `old.${apex}`, `www.${apex}`]));
    expect(Object.keys(doc.findings[0]).sort()).toEqual(
      [
        'evidence',
        'explanation',
        'proof',
        'proofOfConcept',
        'recordType',
        'remediation',
        'risk',
        'service',
        'sources',
        'status',
        'subdomain',
        'target',
      ].sort(),
    );
    const bySubdomain = Object.fromEntries(doc.findings.map((f: { subdomain: string }) => [f.subdomain, f]));
    expect(bySubdomain[`docs.${apex}`]).toMatchObject({
      service: 'Surge.sh',
      // Surge's page is the only evidence, and Surge has no availability check: not proven.
      status: 'likely',
      risk: 'high',
      proof: null,
    });
    // Azure's check needs the operator's probe credentials, which this command was not given.
    expect(bySubdomain[`old.${apex}`]).toMatchObject({
      service: 'Azure App Service',
      status: 'likely',
      proof: null,
    });
    expect(bySubdomain[`old.${apex}`].evidence.join(' ')).toContain('the azure-app-service check is off');
    // Where each name came from: the wordlist guessed docs, the caller named old.
    expect(bySubdomain[`docs.${apex}`].sources).toEqual(['wordlist']);
    expect(bySubdomain[`old.${apex}`].sources).toEqual(['given']);
  });

  it('--max-names bounds the names checked and says what was left out', async () => {
    const { stdout } = await run([
      apex,
      '--json',
      ...fixtureFlags(),
      '--no-ct',
      '--max-names',
      '2',
      '--deadline-ms',
      '60000',
      '--wordlist',
      join(dir, 'words.txt'),
    ]);
    const doc = JSON.parse(stdout);
    expect(doc.subdomains.length).toBeLessThanOrEqual(2);
    expect(doc.errors.some((e: { message: string }) => /limit of 2 names/.test(e.message))).toBe(true);
  });

  it('exits 0 when there is nothing to report, and prints a readable report by default', async () => {
    const clean = await run([
      'clean.test',
      ...fixtureFlags(),
      '--no-ct',
      '--wordlist',
      join(dir, 'words.txt'),
    ]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('No dangling records found.');
    const report = await run([
      apex,
      ...fixtureFlags(),
      '--no-discovery',
      '--subdomains',
      join(dir, 'names.txt'),
    ]);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('HIGH RISK');
    expect(report.stdout).toContain(`old.${apex}`);
    expect(report.stdout).toContain('Fix: ');
  });

  it.each([
    [['not a domain!'], /invalid domain/],
    [['example.com', '--bogus'], /Unknown option '--bogus'/],
    [['example.com', '--wordlist', '/nonexistent/words.txt'], /cannot read --wordlist/],
    [['example.com', '--resolver', 'dns.example:53'], /invalid resolver/],
    [['example.com', '--http-port', '0'], /--http-port/],
    [['example.com', '--ct-url', 'ftp://x'], /--ct-url/],
    [['example.com', '--max-names', '0'], /--max-names/],
    [['example.com', '--deadline-ms', 'soon'], /--deadline-ms/],
    [[], /exactly one domain/],
  ])('bad input %j: one line on stderr and exit 2', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
