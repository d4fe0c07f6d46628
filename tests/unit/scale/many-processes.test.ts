// API processes and worker processes apart, on one PostgreSQL. Everything here is a
// real `danglewatch` process (`serve --no-worker`, `worker`); the test process only seeds accounts,
// plays the DNS and RDAP servers, and reads the database to check what happened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAILING_LIST_RATE } from '../../../src/core/limits.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { type Database, queryRows } from '../../../src/db/client.ts';
import { domains, scans } from '../../../src/db/schema.ts';
import { USER_CONCURRENT_SCANS } from '../../../src/model/constants.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { WORKER_SCANS } from '../../../src/worker/jobs/run-scan.ts';
import { type ApiFixture, startApiServer } from '../../fixtures/api-server.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { type DanglewatchProcess, startDanglewatch } from '../../helpers/danglewatch-process.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { mintIdToken, waitForAuthEmulator } from '../../helpers/emulator.ts';
import { until } from '../../helpers/until.ts';

const postgres = databaseBackends.find((backend) => backend.name === 'PostgreSQL');
if (!postgres) throw new Error('no PostgreSQL backend');

const USERS = 5;
const DOMAINS_PER_USER = 10;
/** A worker's scan that stops writing its heartbeat is taken back after this (default 90 s). */
const STALE_SECONDS = 6;

describe.skipIf(postgres.skipReason)(
  `two API processes and two workers on one PostgreSQL${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
  () => {
    let database: Database;
    let dns: DnsFixture;
    let rdap: ApiFixture;
    let dataDir: string;
    const apis: DanglewatchProcess[] = [];
    const workers: DanglewatchProcess[] = [];
    const apiUrls: string[] = [];
    const accounts: { email: string; token: string }[] = [];

    beforeAll(async () => {
      database = await postgres.open();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      dns = await startDnsServer();
      rdap = await startApiServer();
      dataDir = mkdtempSync(join(tmpdir(), 'dw-scale-'));
      const emulatorHost = inject('authEmulatorHost');
      await waitForAuthEmulator(emulatorHost);
      const env = {
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
        SCAN_STALE_SECONDS: String(STALE_SECONDS),
        SCAN_REAP_INTERVAL_SECONDS: '1',
      };
      // All four at once, as an orchestrator starts them: migrations and pg-boss's schema must cope.
      const started = await Promise.all([
        startDanglewatch(['serve', '--no-worker'], env, 'DangleWatch is running'),
        startDanglewatch(['serve', '--no-worker'], env, 'DangleWatch is running'),
        startDanglewatch(['worker'], env, 'DangleWatch worker is running'),
        startDanglewatch(['worker'], env, 'DangleWatch worker is running'),
      ]);
      apis.push(...started.slice(0, 2));
      workers.push(...started.slice(2));
      apiUrls.push(...apis.map((api) => String(api.ready.url)));
      expect(apis.map((api) => api.ready.worker)).toEqual([false, false]);

      for (let u = 0; u < USERS; u++) {
        const email = `owner${u}@scale-test.com`;
        const { idToken } = await mintIdToken(emulatorHost, { sub: `scale-${u}`, email, name: `Owner ${u}` });
        // Sign-in through either process: the account row is the same.
        const res = await fetch(`${apiUrls[u % 2]}/auth/verify`, {
          method: 'POST',
          headers: { authorization: `Bearer ${idToken}` },
        });
        expect(res.status).toBe(200);
        await setPlan(database.db, email, 'pro-solo');
        accounts.push({ email, token: idToken });
      }
      // Each apex exists (a TXT record is enough) and answers slowly, see dns.delayMs below.
      for (let u = 0; u < USERS; u++)
        for (let d = 0; d < DOMAINS_PER_USER; d++)
          dns.add(`scale-u${u}-d${d}.com`, { type: 'TXT', data: 'v=spf1 -all' });
      const owners = await database.db.query.users.findMany();
      await database.db.insert(domains).values(
        accounts.flatMap((account, u) =>
          Array.from({ length: DOMAINS_PER_USER }, (_, d) => ({
            workspaceId: owners.find((owner) => owner.email === account.email)?.id ?? 'missing',
            domain: `scale-u${u}-d${d}.com`,
            verificationToken: 's'.repeat(24),
            scanConfig: { ...DEFAULT_SCAN_CONFIG, scanFrequency: 'manual' as const },
            status: 'verified',
          })),
        ),
      );
    }, 120_000);

    afterAll(async () => {
      await Promise.all([...apis, ...workers].map((p) => p.stop()));
      await dns?.close();
      await rdap?.close();
      await database?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const post = (base: string, path: string, body: unknown, token?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    it('runs 50 scans queued through both API processes, each exactly once, and loses none when a worker is killed mid-scan', async () => {
      // Slow answers keep scans running long enough for a worker to die in the middle of some.
      dns.delayMs = 300;
      const queued: string[] = [];
      for (let d = 0; d < DOMAINS_PER_USER; d++) {
        for (let u = 0; u < USERS; u++) {
          const account = accounts[u];
          if (!account) throw new Error('no account');
          const res = await post(
            apiUrls[queued.length % 2] as string,
            '/scan/api/v1/scan',
            {
              domain: `scale-u${u}-d${d}.com`,
              scanType: 'dangling-subdomains',
              skip_discovery: true,
              use_certificate_transparency: false,
              use_multi_stage_validation: false,
            },
            account.token,
          );
          expect(res.status).toBe(202);
          queued.push(((await res.json()) as { scan_id: string }).scan_id);
        }
      }
      expect(new Set(queued).size).toBe(USERS * DOMAINS_PER_USER);

      const running = async () =>
        database.db
          .select({ id: scans.id, userId: scans.workspaceId })
          .from(scans)
          .where(eq(scans.status, 'running'));
      // One worker runs at most WORKER_SCANS at once: more running means both hold scans now.
      const atKill = await until(async () => {
        const rows = await running();
        return rows.length > WORKER_SCANS ? rows : undefined;
      }, 60_000);
      const [victim, survivor] = workers;
      if (!victim || !survivor) throw new Error('no workers');
      await victim.kill();

      let mostPerUser = 0;
      const done = await until(async () => {
        const perUser = new Map<string, number>();
        for (const row of await running()) perUser.set(row.userId, (perUser.get(row.userId) ?? 0) + 1);
        mostPerUser = Math.max(mostPerUser, ...perUser.values());
        const rows = await database.db.select().from(scans).where(inArray(scans.id, queued));
        return rows.every((row) => ['completed', 'failed', 'cancelled'].includes(row.status))
          ? rows
          : undefined;
      }, 90_000);
      dns.delayMs = 0;

      expect(done).toHaveLength(USERS * DOMAINS_PER_USER);
      expect(done.filter((row) => row.status !== 'completed')).toEqual([]);
      // attempts counts claims: 1 for a scan run once; 2 only for a scan the dead worker held.
      const again = done.filter((row) => row.attempts !== 1);
      expect(again.length).toBeGreaterThan(0);
      for (const row of again) {
        expect(row.attempts).toBe(2);
        expect(atKill.map((r) => r.id)).toContain(row.id);
      }
      // One scan row per domain: nothing queued twice, nothing lost.
      const perDomain = await database.db
        .select({ domain: scans.domain, n: count() })
        .from(scans)
        .groupBy(scans.domain);
      expect(perDomain).toHaveLength(USERS * DOMAINS_PER_USER);
      expect(perDomain.every((row) => Number(row.n) === 1)).toBe(true);
      // Across both workers, no user ever had more scans running than one user may.
      expect(mostPerUser).toBeLessThanOrEqual(USER_CONCURRENT_SCANS);

      // The dead worker's jobs do not stay 'active' in the queue: the reaper ended them when it
      // took their scans back.
      await until(async () => {
        const active = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from pgboss.job where name = 'run-scan' and state = 'active'`,
        );
        return active[0]?.n === 0 ? true : undefined;
      }, 10_000);

      // The survivor's heartbeat keeps /scan/health green on both API processes.
      for (const url of apiUrls) {
        const health = (await (await fetch(`${url}/scan/health`)).json()) as { checks: { worker: boolean } };
        expect(health.checks.worker).toBe(true);
      }
    }, 150_000);

    it('keeps one mailing-list rate limit across both API processes', async () => {
      const { limit } = MAILING_LIST_RATE;
      const answers: { status: number; remaining: string | null }[] = [];
      for (let i = 0; i < limit + 2; i++) {
        const res = await post(apiUrls[i % 2] as string, '/mailing-list', {
          email: `reader${i}@scale-test.com`,
          source: 'scale-test',
        });
        answers.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
      }
      // One count shared by both: each answer says one less remaining, whichever process gave it.
      expect(answers.slice(0, limit)).toEqual(
        Array.from({ length: limit }, (_, i) => ({ status: 201, remaining: String(limit - 1 - i) })),
      );
      expect(answers.slice(limit).map((a) => a.status)).toEqual([429, 429]);
    });
  },
);
