// `npm run bench` (last part): the scheduling pass on PostgreSQL with 10,000 and then 100,000
// verified domains all due at once (as after an outage), 100 to a workspace, each with yesterday's
// completed scan and statistics taken before the pass (ANALYZE after seeding). Two workers (two
// connection pools, two pg-boss producers) run passes back to back until nothing is due, as two
// workers taking the minute's job would. Ownership is looked up for every domain, through a DNS
// server on loopback in a process of its own that answers every name's TXT record. Prints, per
// size: the time per domain (from the first pass's start to the last one's end), the rows read per
// domain (seq_tup_read + idx_tup_fetch of pg_stat_user_tables, every table, pg-boss's included),
// and whether two passes overlapped. The budget: both per-domain figures at 100,000 within 1.5
// times those at 10,000. Prints figures; enforces nothing.
//
// BENCH_DATABASE_URL names the PostgreSQL server (default: the developer and CI machines' one); a
// throwaway database is created on it per size and dropped afterwards. BENCH_SCHEDULER_SIZES
// changes the sizes (comma-separated).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { z } from 'zod';
import { scheduleDueScans } from '../src/core/domains/scheduled-scans.ts';
import { type Database, migrateDatabase, openDatabase } from '../src/db/client.ts';
import { DEFAULT_SCAN_CONFIG } from '../src/model/contract.ts';
import { startQueue } from '../src/worker/queue.ts';
import { startDnsServer } from '../tests/fixtures/dns-server.ts';

const APEX = 'sched.test';
const TOKEN = 's'.repeat(24);
const PER_WORKSPACE = 100;
const logger = pino({ level: 'silent' });
const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

// The DNS server's own process: answers TXT for every name below APEX, counts the TXT questions.
if (process.argv[2] === 'dns') {
  const dns = await startDnsServer({
    zone: new Map([[`*.${APEX}`, [{ type: 'TXT', data: `danglewatch-verify=${TOKEN}` }]]]),
  });
  process.stdout.write(`${JSON.stringify({ port: dns.port })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', () => {
    const txt = dns.queries.filter((q) => q.type === 'TXT').length;
    dns.queries.length = 0;
    process.stdout.write(`${JSON.stringify({ txt })}\n`);
  });
  lines.on('close', () => dns.close().then(() => process.exit(0)));
} else {
  await main();
}

async function main(): Promise<void> {
  const serverUrl = z
    .string()
    .regex(/^postgres(ql)?:\/\//)
    .default('postgres://postgres@127.0.0.1:5432/test')
    .parse(process.env.BENCH_DATABASE_URL || undefined);
  const sizes = z
    .array(z.coerce.number().int().min(100))
    .parse((process.env.BENCH_SCHEDULER_SIZES || '10000,100000').split(','));

  const child = spawn(process.execPath, [import.meta.filename, 'dns'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const { port } = JSON.parse(await nextLine(answers)) as { port: number };
  const dns = { child, answers };
  console.log(
    'Scheduling pass (PostgreSQL, all domains due at once, 2 workers, ownership looked up on loopback)',
  );
  const results: Record<number, Figures> = {};
  try {
    for (const size of sizes) {
      const figures = await benchSize(serverUrl, size, [`127.0.0.1:${port}`], dns);
      results[size] = figures;
      console.log(`  ${f(size)} due domains`);
      console.log(
        `    time per domain      ${f(figures.msPerDomain, 3)} ms (${f(figures.totalMs / 1000, 1)} s in ${figures.passes} pass${figures.passes === 1 ? '' : 'es'}, ${f(figures.slowestPassMs / 1000, 1)} s the longest)`,
      );
      console.log(
        `    rows read per domain ${f(figures.rowsPerDomain, 2)} (${Object.entries(figures.rowsByTable)
          .filter(([, rows]) => rows / size >= 0.005)
          .sort((a, b) => b[1] - a[1])
          .map(([table, rows]) => `${table} ${f(rows / size, 2)}`)
          .join(', ')})`,
      );
      console.log(
        `    overlap              ${figures.overlapped ? 'YES: two passes worked at once' : 'none'} (${figures.left} pass${figures.left === 1 ? '' : 'es'} left while another ran; TXT lookups per domain ${f(figures.lookupsPerDomain, 2)}, scans per domain ${f(figures.scansPerDomain, 2)})`,
      );
    }
    const [small, large] =
      sizes.length >= 2 ? [results[sizes[0] as number], results[sizes.at(-1) as number]] : [];
    if (small && large) {
      const time = large.msPerDomain / small.msPerDomain;
      const rows = large.rowsPerDomain / small.rowsPerDomain;
      console.log(
        `  ${f(sizes.at(-1) as number)} against ${f(sizes[0] as number)}: time per domain ×${f(time, 2)}, rows read per domain ×${f(rows, 2)} (budget ×1.5 each)`,
      );
    }
  } finally {
    dns.child.stdin?.end();
  }
}

interface Figures {
  totalMs: number;
  msPerDomain: number;
  passes: number;
  slowestPassMs: number;
  left: number;
  rowsPerDomain: number;
  rowsByTable: Record<string, number>;
  overlapped: boolean;
  lookupsPerDomain: number;
  scansPerDomain: number;
}

interface Worker {
  database: Database;
  queue: Parameters<typeof scheduleDueScans>[1];
  stop: () => Promise<void>;
}

async function benchSize(
  serverUrl: string,
  size: number,
  resolvers: string[],
  dns: { child: ChildProcess; answers: Interface },
): Promise<Figures> {
  const name = `dw_bench_sched_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const stats = new pg.Client({ connectionString: databaseUrl });
  const workers: Worker[] = [];
  try {
    await seed(databaseUrl, size);
    await stats.connect();
    // pg-boss lays out its tables before the count starts, as it has on a running system.
    const setup = await openDatabase({ databaseUrl });
    await (await startQueue(setup, logger)).stop();
    await setup.close();
    const before = await settledRowsRead(stats);

    // Each pass's job inserts, which happen inside its lease: two passes' inserts interleave only
    // if the passes worked at once.
    const inserts: { pass: string; at: number }[] = [];
    const passCount = [0, 0];
    for (const worker of [0, 1]) {
      const database = await openDatabase({ databaseUrl });
      const jobs = await startQueue(database, logger);
      workers.push({
        database,
        queue: {
          enqueue: (id) => jobs.queue.enqueue(id),
          enqueueMany: async (ids) => {
            inserts.push({ pass: `${worker}:${passCount[worker]}`, at: performance.now() });
            await jobs.queue.enqueueMany?.(ids);
          },
        },
        stop: () => jobs.stop(),
      });
    }

    const passes: number[] = [];
    let left = 0;
    let done = false;
    const started = performance.now();
    const work = async (worker: number, { database, queue }: Worker): Promise<void> => {
      while (!done) {
        const t = performance.now();
        const pass = await scheduleDueScans(database.db, queue, logger, { resolvers });
        if (pass.busy) {
          left += 1;
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        passes.push(performance.now() - t);
        passCount[worker] = (passCount[worker] ?? 0) + 1;
        if (!pass.stoppedAtDeadline) done = true;
      }
    };
    await Promise.all(workers.map((worker, i) => work(i, worker)));
    const totalMs = performance.now() - started;
    for (const worker of workers.splice(0)) {
      await worker.stop();
      await worker.database.close();
    }
    const after = await settledRowsRead(stats);
    const [scanCount] = (
      await stats.query<{ scans: number }>(
        `select count(*)::int as scans from scans where trigger = 'scheduled' and status = 'pending'`,
      )
    ).rows;
    dns.child.stdin?.write('count\n');
    const { txt } = JSON.parse(await nextLine(dns.answers)) as { txt: number };

    const rowsByTable: Record<string, number> = {};
    for (const [table, rows] of after) {
      const read = rows - (before.get(table) ?? 0);
      if (read > 0) rowsByTable[table] = read;
    }
    const rowsRead = Object.values(rowsByTable).reduce((a, b) => a + b, 0);
    return {
      totalMs,
      msPerDomain: totalMs / size,
      passes: passes.length,
      slowestPassMs: Math.max(...passes),
      left,
      rowsPerDomain: rowsRead / size,
      rowsByTable,
      overlapped: interleaved(inserts),
      lookupsPerDomain: txt / size,
      scansPerDomain: (scanCount?.scans ?? 0) / size,
    };
  } finally {
    for (const worker of workers) {
      await worker.stop().catch(() => {});
      await worker.database.close().catch(() => {});
    }
    await stats.end().catch(() => {});
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

/**
 * The domains as a system that has run for a while has them: verified by their TXT records a
 * month ago, checked yesterday, scanned yesterday, and all due now (overdue by up to an hour), with
 * the planner's statistics taken before the pass.
 */
async function seed(databaseUrl: string, size: number): Promise<void> {
  const database = await openDatabase({ databaseUrl });
  try {
    await migrateDatabase(database);
    const db = database.db;
    const workspaces = Math.ceil(size / PER_WORKSPACE);
    await db.execute(sql`
      insert into users (id, email, provider)
      select 'sched-' || i, 'owner-' || i || '@${sql.raw(APEX)}', 'google' from generate_series(1, ${workspaces}) i`);
    await db.execute(sql`update workspaces set tier = 'pro-solo'`);
    await db.execute(sql`
      insert into domains (workspace_id, domain, status, verification_token, scan_config, proof,
                           verified_at, ownership_checked_at, next_scan_at)
      select 'sched-' || (1 + (i - 1) / ${PER_WORKSPACE}), 'd' || i || '.${sql.raw(APEX)}', 'verified', ${TOKEN},
             ${JSON.stringify(DEFAULT_SCAN_CONFIG)}::jsonb, 'txt', now() - interval '30 days',
             now() - interval '1 day', now() - (i % 3600) * interval '1 second'
      from generate_series(1, ${size}) i`);
    await db.execute(sql`
      insert into scans (workspace_id, domain_id, domain, status, trigger, created_at, started_at, completed_at)
      select workspace_id, id, domain, 'completed', 'scheduled', now() - interval '1 day',
             now() - interval '1 day', now() - interval '1 day' + interval '1 minute'
      from domains`);
    await db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
}

/**
 * Rows read per table so far (sequential scans' rows and index fetches). A backend reports its
 * counts when it ends or every few seconds, so this reads until two reads a second apart agree.
 */
async function settledRowsRead(client: pg.Client): Promise<Map<string, number>> {
  const read = async () => {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ name: string; rows: string }>(
      `select schemaname || '.' || relname as name, seq_tup_read + coalesce(idx_tup_fetch, 0) as rows
       from pg_stat_user_tables`,
    );
    return new Map(rows.map((row) => [row.name.replace(/^public\./, ''), Number(row.rows)]));
  };
  let last = await read();
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = await read();
    const same = [...now].every(([table, rows]) => last.get(table) === rows) && now.size === last.size;
    last = now;
    if (same) break;
  }
  return last;
}

/** True when the job inserts of two passes interleave in time. */
function interleaved(inserts: { pass: string; at: number }[]): boolean {
  const spans = new Map<string, [number, number]>();
  for (const { pass, at } of inserts) {
    const span = spans.get(pass);
    spans.set(pass, span ? [Math.min(span[0], at), Math.max(span[1], at)] : [at, at]);
  }
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of [...spans.values()].sort((a, b) => a[0] - b[0])) {
    if (from < end) return true;
    end = Math.max(end, to);
  }
  return false;
}

function nextLine(lines: Interface): Promise<string> {
  return new Promise((resolve) => lines.once('line', resolve));
}
