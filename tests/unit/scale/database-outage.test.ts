// The database goes away under running processes, as it does at every PostgreSQL restart, failover,
// pg_terminate_backend or proxy restart: real `danglewatch` processes (`serve --no-worker`,
// `worker`) must stay up, answer 503 in the error shape meanwhile, and carry on once it is back.
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import type { Database } from '../../../src/db/client.ts';
import { domains, scans } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { type ApiFixture, startApiServer } from '../../fixtures/api-server.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { expectError } from '../../helpers/api.ts';
import { type DanglewatchProcess, startDanglewatch } from '../../helpers/danglewatch-process.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { mintIdToken, waitForAuthEmulator } from '../../helpers/emulator.ts';
import { until } from '../../helpers/until.ts';

const postgres = databaseBackends.find((backend) => backend.name === 'PostgreSQL');
if (!postgres) throw new Error('no PostgreSQL backend');

const UNREACHABLE = 'database unreachable: answering 503 and retrying until it is back';

describe.skipIf(postgres.skipReason)(
  `processes through a database outage${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
  () => {
    let database: Database;
    let dns: DnsFixture;
    let rdap: ApiFixture;
    let dataDir: string;
    let env: Record<string, string>;
    let api: DanglewatchProcess;
    let worker: DanglewatchProcess;
    let apiUrl: string;
    let token: string;
    let databaseName: string;
    const logs = new Map<string, Record<string, unknown>[]>([
      ['api', []],
      ['worker', []],
    ]);

    /** Runs SQL on the server's maintenance database, outside the database the processes use. */
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(query);
      } finally {
        await client.end();
      }
    };
    /** As a restart or failover does: every connection closed, and no new one taken meanwhile. */
    const cutDatabase = async () => {
      await admin(`alter database ${databaseName} with allow_connections false`);
      await admin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${databaseName}' and pid <> pg_backend_pid()`,
      );
    };
    const restoreDatabase = () => admin(`alter database ${databaseName} with allow_connections true`);

    const startScan = async (domain: string) => {
      const res = await fetch(`${apiUrl}/scan/api/v1/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          domain,
          scanType: 'dangling-subdomains',
          skip_discovery: false,
          use_certificate_transparency: false,
          use_multi_stage_validation: false,
        }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { scan_id: string }).scan_id;
    };
    const scanRow = async (id: string) => (await database.db.select().from(scans).where(eq(scans.id, id)))[0];

    beforeAll(async () => {
      database = await postgres.open();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      databaseName = new URL(String(database.pool.options.connectionString)).pathname.slice(1);
      dns = await startDnsServer();
      rdap = await startApiServer();
      dataDir = mkdtempSync(join(tmpdir(), 'dw-outage-'));
      const emulatorHost = inject('authEmulatorHost');
      await waitForAuthEmulator(emulatorHost);
      env = {
        DATABASE_URL: String(database.pool.options.connectionString),
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        SCAN_RESOLVERS: `127.0.0.1:${dns.port}`,
        SCAN_ALLOW_PRIVATE: 'true',
        CT_URL: `${rdap.url}/crtsh`,
        CERTSPOTTER_URL: `${rdap.url}/certspotter`,
        RDAP_URL: `${rdap.url}/rdap`,
        SCAN_REAP_INTERVAL_SECONDS: '1',
      };
      [api, worker] = await Promise.all([
        startDanglewatch(['serve', '--no-worker'], env, 'DangleWatch is running', {
          onLog: (entry) => logs.get('api')?.push(entry),
        }),
        startDanglewatch(['worker'], env, 'DangleWatch worker is running', {
          onLog: (entry) => logs.get('worker')?.push(entry),
        }),
      ]);
      apiUrl = String(api.ready.url);
      const email = 'owner@outage-test.com';
      ({ idToken: token } = await mintIdToken(emulatorHost, { sub: 'outage-owner', email, name: 'Owner' }));
      const verified = await fetch(`${apiUrl}/auth/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(verified.status).toBe(200);
      await setPlan(database.db, email, 'pro-solo');
      const [owner] = await database.db.query.users.findMany();
      for (const domain of ['outage-a.com', 'outage-b.com']) {
        dns.add(domain, { type: 'TXT', data: 'v=spf1 -all' });
        await database.db.insert(domains).values({
          workspaceId: owner?.id ?? 'missing',
          domain,
          verificationToken: 'o'.repeat(24),
          scanConfig: { ...DEFAULT_SCAN_CONFIG, scanFrequency: 'manual' as const },
          status: 'verified',
        });
      }
    }, 120_000);

    afterAll(async () => {
      await restoreDatabase().catch(() => {});
      await Promise.all([api, worker].filter(Boolean).map((p) => p.stop()));
      await dns?.close();
      await rdap?.close();
      await database?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('stays up through a cut, answers 503 meanwhile, and completes the scan that was in flight', async () => {
      // Slow answers keep the wordlist scan running across the cut.
      dns.delayMs = 15;
      const inFlight = await startScan('outage-a.com');
      await until(async () => ((await scanRow(inFlight))?.status === 'running' ? true : undefined), 30_000);

      await cutDatabase();
      try {
        // Each kind of answer while the database is away: the API in the error shape, readiness, health.
        const scansCall = await fetch(`${apiUrl}/scan/api/v1/scans`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await expectError(scansCall, 503, 'Service temporarily unavailable', 'SERVICE_UNAVAILABLE');
        expect(scansCall.headers.get('retry-after')).toBe('2');
        expect((await fetch(`${apiUrl}/ready`)).status).toBe(503);
        const health = await fetch(`${apiUrl}/scan/health`);
        expect(health.status).toBe(503);
        expect(((await health.json()) as { status: string }).status).toBe('down');
        // Long enough for every poller, heartbeat and progress write to hit the outage.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect([api.child.exitCode, worker.child.exitCode]).toEqual([null, null]);
      } finally {
        await restoreDatabase();
      }

      // Everything answers again within 5 s of the database coming back, without a restart.
      await until(async () => {
        const res = await fetch(`${apiUrl}/scan/api/v1/scans`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return res.status === 200 ? true : undefined;
      }, 5_000);
      expect((await fetch(`${apiUrl}/ready`)).status).toBe(200);
      dns.delayMs = 0;

      const ended = await until(async () => {
        const row = await scanRow(inFlight);
        return row && !['pending', 'running'].includes(row.status) ? row : undefined;
      }, 90_000);
      // Completed once, by the run that was in flight: not lost, not run a second time.
      expect(ended).toMatchObject({ status: 'completed', attempts: 1 });
      // The worker logs after it writes the row: on a busy machine its line reaches us a moment later.
      const completions = await until(async () => {
        const found = (logs.get('worker') ?? []).filter(
          (entry) => entry.msg === 'scan completed' && entry.scanId === inFlight,
        );
        return found.length > 0 ? found : undefined;
      }, 5_000);
      expect(completions).toHaveLength(1);

      const next = await startScan('outage-b.com');
      const after = await until(async () => {
        const row = await scanRow(next);
        return row?.status === 'completed' ? row : undefined;
      }, 60_000);
      expect(after.status).toBe('completed');
      const stuck = await database.db
        .select({ id: scans.id })
        .from(scans)
        .where(inArray(scans.status, ['pending', 'running']));
      expect(stuck).toEqual([]);

      // One line when the database went away and one when it was back, per process, not one per poll.
      for (const [name, entries] of logs) {
        expect({ name, lines: entries.filter((e) => e.msg === UNREACHABLE).length }).toEqual({
          name,
          lines: 1,
        });
        expect(entries.some((e) => e.msg === 'database is back')).toBe(true);
      }
      expect([api.child.exitCode, worker.child.exitCode]).toEqual([null, null]);
    }, 180_000);

    it('waits for a database that does not answer at start, saying where, and starts once it does', async () => {
      // A port nothing listens on yet; later a proxy to the real server opens there.
      const holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const port = (holder.address() as AddressInfo).port;
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      const url = new URL(env.DATABASE_URL as string);
      const target = { host: url.hostname, port: Number(url.port || 5432) };
      url.port = String(port);

      const said: Record<string, unknown>[] = [];
      const starting = startDanglewatch(
        ['worker'],
        { ...env, DATABASE_URL: url.toString() },
        'DangleWatch worker is running',
        {
          onLog: (entry) => said.push(entry),
          timeoutMs: 60_000,
        },
      );
      await until(
        async () =>
          said.some((e) => String(e.msg).startsWith('cannot reach the database')) ? true : undefined,
        20_000,
      );
      expect(said.find((e) => String(e.msg).startsWith('cannot reach the database'))?.msg).toBe(
        `cannot reach the database at 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}); retrying every 2 s`,
      );

      const proxy = net.createServer((socket) => {
        const upstream = net.connect(target);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
      try {
        const late = await starting;
        expect(late.child.exitCode).toBeNull();
        expect(said.some((e) => e.msg === 'the database answers: starting')).toBe(true);
        await late.stop();
      } finally {
        await new Promise<void>((resolve) => {
          proxy.close(() => resolve());
          // Connections the stopped worker left open would keep the server from closing.
          setTimeout(resolve, 1_000);
        });
      }
    }, 90_000);
  },
);
