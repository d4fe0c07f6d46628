import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newApiKey } from '../../../src/core/api-keys/key.ts';
import type { Database } from '../../../src/db/client.ts';
import { apiKeys, domains, scans, users, workspaces } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG, type FindingView } from '../../../src/model/contract.ts';
import { testApp } from '../../helpers/app.ts';
import { runCli } from '../../helpers/cli.ts';
import { databaseBackends } from '../../helpers/databases.ts';

const FINDING: FindingView = {
  subdomain: 'old.remote-scan.dev',
  recordType: 'CNAME',
  target: 'gone-app.herokuapp.com',
  service: 'Heroku',
  status: 'claimable',
  risk: 'high',
  evidence: ['old CNAME gone-app.herokuapp.com'],
  explanation: 'Nobody owns the Heroku app this name points at.',
  proofOfConcept: 'Create the app gone-app on Heroku.',
  remediation: 'Delete the CNAME record.',
};

/** The catalogue's sources the server's scan used, as a worker records them. */
const SOURCES = [
  { name: 'BadDNS', url: 'https://github.com/blacklanternsecurity/baddns/tree/373abc9', date: '2026-03-22' },
  { name: 'nuclei-templates', url: 'file:///srv/nuclei-templates/http/takeovers', date: '2026-11-28' },
];

describe('danglewatch scan --server: a scan through the public API', () => {
  let database: Database;
  let server: ReturnType<typeof serve>;
  let url: string;
  let key: string;
  /** What the stand-in worker makes of the next scan. */
  let outcome: { status: 'completed' | 'failed'; findings: FindingView[]; error?: string };

  beforeAll(async () => {
    const backend = databaseBackends[0];
    if (!backend) throw new Error('no PGlite');
    database = await backend.open();
    const { db } = database;
    await db.insert(users).values({ id: 'remote-1', email: 'ops@remote-scan.dev', provider: 'github' });
    await db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, 'remote-1'));
    await db.insert(domains).values({
      workspaceId: 'remote-1',
      domain: 'remote-scan.dev',
      verificationToken: 'r'.repeat(24),
      scanConfig: DEFAULT_SCAN_CONFIG,
      status: 'verified',
    });
    const created = newApiKey();
    key = created.secret;
    await db
      .insert(apiKeys)
      // Made by the workspace's owner: a key acts with at most its maker's role.
      .values({
        workspaceId: 'remote-1',
        createdBy: 'remote-1',
        name: 'cli',
        prefix: created.prefix,
        hash: created.hash,
      });
    // A worker stand-in: the scan runs, then ends as `outcome` says, as a real worker would write it.
    const queue = {
      enqueue: async (id: string) => {
        setTimeout(async () => {
          await db
            .update(scans)
            .set({
              status: 'running',
              startedAt: new Date(),
              progress: { stage: 'resolve', checked: 1, total: 2 },
            })
            .where(eq(scans.id, id));
          setTimeout(async () => {
            await db
              .update(scans)
              .set({
                status: outcome.status,
                completedAt: new Date(),
                findings: outcome.findings,
                subdomains: ['remote-scan.dev', FINDING.subdomain],
                subdomainsScanned: 2,
                vulnerabilitiesFound: outcome.findings.length,
                error: outcome.error ?? null,
                fingerprints: outcome.status === 'completed' ? SOURCES : null,
              })
              .where(eq(scans.id, id));
          }, 500);
        }, 500);
      },
    };
    const app = testApp(database, { scanning: { queue, queueUp: () => true } });
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
  });

  const run = (args: string[]) => runCli(['scan', ...args]);

  it('starts the scan on the server, waits for it and prints the report; exit 1 with findings', async () => {
    outcome = { status: 'completed', findings: [FINDING] };
    const result = await run(['Remote-Scan.dev', '--server', url, '--key', key]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('DangleWatch scan of remote-scan.dev on 127.0.0.1');
    expect(result.stdout).toContain('HIGH RISK');
    expect(result.stdout).toContain('old.remote-scan.dev  CNAME → gone-app.herokuapp.com');
    expect(result.stdout).toContain('Fix: Delete the CNAME record.');
    // The server's catalogue, not this machine's: what the verdicts rest on, newest first.
    expect(result.stdout).toContain('Fingerprints: nuclei-templates 2026-11-28, BadDNS 2026-03-22\n');
  }, 30_000);

  it('prints the local scan JSON document with --json, the key from DANGLEWATCH_KEY; exit 0 without findings', async () => {
    outcome = { status: 'completed', findings: [] };
    vi.stubEnv('DANGLEWATCH_KEY', key);
    const result = await run(['remote-scan.dev', '--server', url, '--json', '--no-ct']);
    vi.unstubAllEnvs();
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document)).toEqual([
      'domain',
      'startedAt',
      'completedAt',
      'subdomains',
      'findings',
      'errors',
      'fingerprints',
    ]);
    expect(document).toMatchObject({
      domain: 'remote-scan.dev',
      fingerprints: SOURCES,
      findings: [],
      subdomains: ['remote-scan.dev', FINDING.subdomain],
    });
    // --no-ct reached the server as the scan's option.
    const all = await database.db.select().from(scans);
    expect(all.filter((row) => row.config?.useCertificateTransparency === false)).toHaveLength(1);
  }, 30_000);

  it('takes the output options too: SARIF to a file, then that file as the baseline', async () => {
    outcome = { status: 'completed', findings: [FINDING] };
    const dir = mkdtempSync(join(tmpdir(), 'dw-remote-'));
    try {
      const sarif = join(dir, 'scan.sarif');
      const first = await run([
        'remote-scan.dev',
        '--server',
        url,
        '--key',
        key,
        '--format',
        'sarif',
        '--output',
        sarif,
      ]);
      expect(first.code).toBe(1);
      expect(first.stdout).toBe('');
      const log = JSON.parse(readFileSync(sarif, 'utf8'));
      expect(log.runs[0].results[0]).toMatchObject({ level: 'error', ruleId: 'dangling-cname/heroku' });
      expect(log.runs[0].tool.extensions).toEqual(
        SOURCES.map((s) => ({ name: s.name, informationUri: s.url, releaseDateUtc: s.date })),
      );
      const again = await run([
        'remote-scan.dev',
        '--server',
        url,
        '--key',
        key,
        '--baseline',
        sarif,
        '--json',
      ]);
      expect(again.code).toBe(0);
      // Scanned through a workspace, each finding carries the workspace's key for it.
      expect(JSON.parse(again.stdout).findings).toEqual([
        { ...FINDING, key: expect.stringMatching(/^dw:[0-9a-f]{40}$/), known: true },
      ]);
      expect(log.runs[0].results[0].partialFingerprints['danglewatch/key']).toMatch(/^dw:[0-9a-f]{40}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('exits 2 with the reason when the scan fails on the server', async () => {
    outcome = { status: 'failed', findings: [], error: 'DNS resolvers did not answer' };
    const result = await run(['remote-scan.dev', '--server', url, '--key', key]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the scan failed: DNS resolvers did not answer \(scan [0-9a-f-]{36}\)/);
  }, 30_000);

  it("exits 2 with the server's message for a bad key or a domain that is not verified", async () => {
    const bad = await run(['remote-scan.dev', '--server', url, '--key', `dw_${'x'.repeat(43)}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`danglewatch scan: ${url}: 401 Authentication required (INVALID_API_KEY)\n`);
    const other = await run(['other-domain.dev', '--server', url, '--key', key]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('409 Add other-domain.dev and verify that you own it before scanning it');
  });

  it.each([
    [['example.com', '--server', 'ftp://x'], "--server must be an http(s) URL, got 'ftp://x'"],
    [
      ['example.com', '--server', 'http://127.0.0.1:1'],
      '--server needs an API key: give --key dw_… or set DANGLEWATCH_KEY',
    ],
    [
      ['example.com', '--server', 'http://127.0.0.1:1', '--key', 'k', '--resolver', '1.1.1.1'],
      '--resolver cannot be used with --server',
    ],
    [['example.com', '--key', 'dw_x'], '--key is for scans through a server (--server URL)'],
    // Regression: the API key would cross the network in clear text.
    [
      ['example.com', '--server', 'http://danglewatch.example.com', '--key', 'dw_x'],
      '--server must be an https:// URL (http:// only for a server on this machine)',
    ],
    [
      ['example.com', '--server', 'http://10.0.0.5:4321', '--key', 'dw_x'],
      '--server must be an https:// URL (http:// only for a server on this machine)',
    ],
  ])('refuses %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('says so when the server cannot be reached', async () => {
    const result = await run(['example.com', '--server', 'http://127.0.0.1:1', '--key', key]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot reach the server');
  });
});
