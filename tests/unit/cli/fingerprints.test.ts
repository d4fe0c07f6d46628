// `danglewatch fingerprints`: shows the catalogue's sources and dates, and updates it from a local
// upstream copy in each of the three formats (tests/fixtures/upstream/) or a URL, printing what
// changed; a running worker's next scan reads the new file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SOURCES, catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { loadFingerprints } from '../../../src/scanner/fingerprints/file.ts';
import { isGenericToken } from '../../../src/scanner/fingerprints/update.ts';
import { loadConfig } from '../../../src/start/config.ts';
import { engineSettings } from '../../../src/start/engine-settings.ts';
import { liveFingerprints } from '../../../src/start/fingerprints.ts';
import { runCli } from '../../helpers/cli.ts';

const upstream = new URL('../../fixtures/upstream/', import.meta.url).pathname;
const ciito = join(upstream, 'can-i-take-over-xyz', 'fingerprints.json');
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-fingerprints-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const written = (dir: string) => loadFingerprints(join(dir, 'fingerprints.json'));
const update = (dir: string, path: string, date = '2026-11-28') =>
  runCli(['fingerprints', 'update', path, '--date', date], { DATA_DIR: dir });

describe('danglewatch fingerprints', () => {
  it('shows the bundled catalogue with each source and the date of what was read', async () => {
    const run = await runCli(['fingerprints'], { DATA_DIR: fresh() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Fingerprints from the bundled catalogue: \d+ services/);
    expect(run.stdout).toMatch(/can-i-take-over-xyz +2025-02-08 {2}https:\/\/github.com\/EdOverflow/);
    expect(run.stdout).toMatch(/BadDNS +2026-03-22 /);
  });

  it('reads can-i-take-over-xyz fingerprints.json: adds a new row, takes a newer status, refuses a generic one', async () => {
    const dir = fresh();
    const run = await update(dir, ciito);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('can-i-take-over-xyz (2026-11-28, 5 rows from');
    expect(run.stdout).toContain('1 added, 0 removed, 1 status changed, 1 refused, 2 skipped');
    // Rows the catalogue excluded with a reason stay out.
    expect(run.stdout).toMatch(/skipped +Anima: excluded: .*generic 404 sentence/);
    expect(run.stdout).toMatch(/added +Pagecraft: pagecraft.page \(can-i-take-over-xyz Pagecraft\)/);
    expect(run.stdout).toMatch(
      /status changed +Agile CRM: vulnerable → not-vulnerable \(can-i-take-over-xyz Agile CRM\)/,
    );
    expect(run.stdout).toMatch(
      /refused +Plainhost: its only evidence is "404 Not Found", which any server may answer/,
    );
    const file = written(dir);
    expect(file.sources.find((s) => s.name === 'can-i-take-over-xyz')).toMatchObject({
      date: '2026-11-28',
      url: expect.stringMatching(/^file:\/\/.*fingerprints.json$/),
    });
    const added = file.entries.find((e) => e.id === 'ciito-pagecraft');
    expect(added).toMatchObject({
      service: 'Pagecraft',
      cname: ['pagecraft.page'],
      status: 'vulnerable',
      http: { body: ['This Pagecraft site has not been published'], status: [404] },
    });
    expect(file.entries.find((e) => e.id === 'agile-crm')?.status).toBe('not-vulnerable');
    expect(file.entries.some((e) => e.service === 'Plainhost')).toBe(false);
    // Elastic Beanstalk and Anima say what the catalogue says: nothing to change.
    expect(file.entries.length).toBe(catalogue.length + 1);
  });

  it('keeps a newer status against an older table, and removes what an earlier update added once the source drops it', async () => {
    const dir = fresh();
    await update(dir, ciito);
    const shorter = join(dir, 'fingerprints-next.json');
    const rows = JSON.parse(readFileSync(ciito, 'utf8')) as Array<{ service: string }>;
    writeFileSync(shorter, JSON.stringify(rows.filter((r) => r.service !== 'Pagecraft')));
    const run = await update(dir, shorter, '2024-01-01');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('0 added, 1 removed, 0 status changed, 1 refused');
    expect(run.stdout).toMatch(/removed +Pagecraft: can-i-take-over-xyz no longer lists it/);
    const file = written(dir);
    expect(file.entries.some((e) => e.id === 'ciito-pagecraft')).toBe(false);
    // The table of 2024 is older than the status the update of 2026-11-28 gave.
    expect(file.entries.find((e) => e.id === 'agile-crm')?.status).toBe('not-vulnerable');
  });

  it('reads a nuclei-templates checkout: adds a template with a target of its own, and changes nothing for those the catalogue has', async () => {
    const dir = fresh();
    const run = await update(dir, join(upstream, 'nuclei-templates'));
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('nuclei-templates (2026-11-28, 3 rows from');
    expect(run.stdout).toContain('1 added, 0 removed, 0 status changed, 0 refused, 0 skipped');
    expect(run.stdout).toMatch(
      /added +Pagecraft: pagecraft.app \(nuclei-templates http\/takeovers\/pagecraft-takeover.yaml\)/,
    );
    // Mailgun's template (its only evidence a 404) and AfterShip's reach the entries citing them.
    expect(run.stdout).not.toMatch(/Mailgun|Aftership/);
    const entry = written(dir).entries.find((e) => e.id === 'nuclei-pagecraft');
    expect(entry?.sources).toEqual([
      {
        url: expect.stringMatching(/^file:\/\/.*\/http\/takeovers\/pagecraft-takeover.yaml$/),
        date: '2026-11-28',
      },
    ]);
  });

  it('reads a BadDNS signatures folder, on top of an earlier update of another source', async () => {
    const dir = fresh();
    await update(dir, ciito);
    const run = await update(dir, join(upstream, 'baddns', 'signatures'));
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('BadDNS (2026-11-28, 5 rows from');
    expect(run.stdout).toMatch(/added +Pagecraft: pagecraft-sites.net \(BadDNS baddns_pagecraft.yml\)/);
    expect(run.stdout).toMatch(/skipped +SendPulse: excluded: the only matcher is HTTP status 502/);
    const file = written(dir);
    expect(file.entries.map((e) => e.id)).toEqual(
      expect.arrayContaining(['ciito-pagecraft', 'baddns-pagecraft']),
    );
    expect(file.sources.map((s) => s.name)).toEqual(
      expect.arrayContaining(['can-i-take-over-xyz', 'BadDNS']),
    );
    const shown = await runCli(['fingerprints', 'show'], { DATA_DIR: dir });
    expect(shown.stdout).toContain(
      `Fingerprints from ${join(dir, 'fingerprints.json')}: ${file.entries.length} services`,
    );
    expect(shown.stdout).toMatch(/BadDNS +2026-11-28 {2}file:\/\//);
  });

  it('refuses a folder that is none of the three formats, and leaves the catalogue as it was', async () => {
    const dir = fresh();
    const run = await update(dir, join(upstream, '..', 'schemas'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /neither a nuclei-templates http\/takeovers\/ folder, a BadDNS signatures\/ folder nor/,
    );
    expect(() => readFileSync(join(dir, 'fingerprints.json'))).toThrow();
  });

  it('calls status codes and error-page words generic, and a service sentence not', () => {
    for (const token of [
      '404',
      '404 Not Found',
      'Not Found',
      '404 - Page not found',
      '<h1>403 Forbidden</h1>',
      'Bad Request',
    ])
      expect(isGenericToken(token), token).toBe(true);
    for (const sentence of [
      'This Pagecraft site has not been published',
      'The specified bucket does not exist',
    ])
      expect(isGenericToken(sentence), sentence).toBe(false);
  });
});

describe('danglewatch fingerprints update <url>, through the outside-HTTP client', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/fingerprints.json') response.end(readFileSync(ciito));
      else if (request.url === '/moved') response.writeHead(302, { location: '/fingerprints.json' }).end();
      else if (request.url === '/endless') {
        response.write('[');
        const more = () => response.write(`${'{"service":"x"},'.repeat(4096)}`, () => setImmediate(more));
        more();
      } else response.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  // The loopback stand-in is a private address: only SCAN_ALLOW_PRIVATE lets the client reach it.
  const fetched = (dir: string, url: string) =>
    runCli(['fingerprints', 'update', url, '--date', '2026-11-28'], {
      DATA_DIR: dir,
      SCAN_ALLOW_PRIVATE: 'true',
    });

  it('fetches can-i-take-over-xyz fingerprints.json from a URL', async () => {
    const dir = fresh();
    const run = await fetched(dir, `${base}/fingerprints.json`);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('1 added');
    expect(written(dir).sources.find((s) => s.name === 'can-i-take-over-xyz')?.url).toBe(
      `${base}/fingerprints.json`,
    );
  });

  it('refuses a private address unless SCAN_ALLOW_PRIVATE says, and writes nothing', async () => {
    const dir = fresh();
    const loopback = await update(dir, `${base}/fingerprints.json`);
    expect(loopback.code).toBe(2);
    expect(loopback.stderr).toContain(`${base}/fingerprints.json: The 127.0.0.1 URL must use https://`);
    const tls = await update(dir, 'https://127.0.0.1:1/fingerprints.json');
    expect(tls.stderr).toMatch(/The 127.0.0.1 address 127.0.0.1 is refused \(private, loopback/);
    // Nothing was written: the bundled catalogue stays in use.
    expect(() => written(dir)).toThrow(/cannot be read as JSON/);
  });

  it('stops reading an answer past its bound; a redirect is not followed; a 404 is an error', async () => {
    const dir = fresh();
    const endless = await fetched(dir, `${base}/endless`);
    expect(endless.code).toBe(2);
    expect(endless.stderr).toContain(
      'sent an answer larger than DangleWatch reads (the answer is larger than 4194304 bytes)',
    );
    expect((await fetched(dir, `${base}/moved`)).stderr).toMatch(/\/moved answered 302/);
    expect((await fetched(dir, `${base}/gone.json`)).stderr).toMatch(/answered 404/);
  });
});

describe('a worker reads the file again without a restart', () => {
  it('sees the bundled catalogue, then the updated file, then a newer one', async () => {
    const dir = fresh();
    const current = liveFingerprints({ dataDir: dir });
    expect(current().entries).toBe(catalogue);
    await update(dir, ciito);
    expect(current().entries.some((e) => e.id === 'ciito-pagecraft')).toBe(true);
    await update(dir, join(upstream, 'baddns', 'signatures'));
    expect(current().entries.some((e) => e.id === 'baddns-pagecraft')).toBe(true);
    const warnings: string[] = [];
    const watched = liveFingerprints({ dataDir: dir }, (m) => warnings.push(m));
    writeFileSync(join(dir, 'fingerprints.json'), '{"version": 1, "sources": []}');
    expect(watched().entries.some((e) => e.id === 'baddns-pagecraft')).toBe(true);
    expect(warnings[0]).toMatch(/is not a fingerprints file .*the catalogue read before stays in use/);
  });

  it("hands each scan the catalogue as it is then: the engine settings' copy per scan reads it", async () => {
    const dir = fresh();
    const settings = engineSettings(loadConfig({ DATA_DIR: dir }));
    // core/scans/run.ts spreads the settings into each scan's options, as here.
    expect({ ...settings }.fingerprints?.entries).toBe(catalogue);
    await update(dir, ciito);
    expect({ ...settings }.fingerprints?.entries.some((e) => e.id === 'ciito-pagecraft')).toBe(true);
  });

  it('fails start-up on a bad file, naming the setting; the bundled sources are a good one', () => {
    const dir = fresh();
    const file = join(dir, 'bad.json');
    writeFileSync(file, 'not json');
    expect(() => liveFingerprints({ dataDir: dir, FINGERPRINTS_FILE: file })).toThrow(
      /^FINGERPRINTS_FILE: .*bad.json cannot be read as JSON/,
    );
    // Every report cites a source by its address (SARIF's informationUri): a bare word is none.
    const entries = catalogue.slice(0, 1);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        sources: [{ name: 'mine', url: 'local copy', date: '2026-11-28' }],
        entries,
      }),
    );
    expect(() => liveFingerprints({ dataDir: dir, FINGERPRINTS_FILE: file })).toThrow(
      /^FINGERPRINTS_FILE: .*bad.json is not a fingerprints file \(sources.0.url: /,
    );
    writeFileSync(file, JSON.stringify({ version: 1, sources: CATALOGUE_SOURCES, entries }));
    expect(liveFingerprints({ dataDir: dir, FINGERPRINTS_FILE: file })().sources).toEqual(CATALOGUE_SOURCES);
  });
});
