// `npm run bench`: the scan engine against local fixtures. Prints figures; enforces nothing.
//  1. a 10,000-name zone: names/s, DNS queries/s against what dnsperf reaches on the same server,
//     peak memory;
//  2. a 1,000-subdomain domain end to end, with HTTP probes and validation (budget: under 30 s).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { scanDomain } from '../src/scanner/scan.ts';
import type { ScanOptions } from '../src/scanner/types.ts';

interface Started {
  child: ChildProcess;
  apex: string;
  names: string[];
  options: ScanOptions;
}

async function startFixtures(mode: 'zone' | 'domain', count: number): Promise<Started> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures.ts'), mode, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixtures exited with ${code}`)));
  });
  return { child, ...JSON.parse(first) };
}

function stop(started: Started) {
  started.child.stdin?.end();
  return new Promise((resolve) => started.child.once('exit', resolve));
}

/** Peak resident memory of this process while `work` runs, sampled, and the kernel's high mark. */
async function measured<T>(work: () => Promise<T>) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000, peakMb: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

function dnsperf(server: string, queries: string[], seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'dw-bench-'));
  const file = join(dir, 'queries.txt');
  writeFileSync(file, `${queries.join('\n')}\n`);
  const [host, port] = server.split(':');
  return new Promise<number>((resolve, reject) => {
    execFile(
      'dnsperf',
      ['-s', host as string, '-p', port as string, '-d', file, '-l', String(seconds), '-q', '100', '-t', '2'],
      (error, stdout) => {
        rmSync(dir, { recursive: true, force: true });
        if (error) return reject(error);
        const qps = /Queries per second:\s+([\d.]+)/.exec(stdout);
        if (!qps) return reject(new Error(`no figure in dnsperf output:\n${stdout}`));
        resolve(Number(qps[1]));
      },
    );
  });
}

const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

async function zoneBenchmark() {
  const fixtures = await startFixtures('zone', 10_000);
  try {
    const options: ScanOptions = {
      ...fixtures.options,
      subdomains: fixtures.names,
      discovery: false,
      ct: false,
      validation: false,
      concurrency: 128,
      timeoutMs: 2000,
      dnsTries: 2,
    };
    await scanDomain(fixtures.apex, { ...options, subdomains: fixtures.names.slice(0, 500) });
    const run = await measured(() => scanDomain(fixtures.apex, options));
    const result = run.value;
    const engineQps = result.stats.dnsQueries / run.seconds;
    // The questions the engine asks (CNAME; A and AAAA where a name exists; MX and TXT where it has
    // no CNAME), replayed by dnsperf.
    const queries = fixtures.names.flatMap((name) =>
      ['CNAME', 'A', 'AAAA', 'MX', 'TXT'].map((type) => `${name} ${type}`),
    );
    const server = fixtures.options.resolvers?.[0] as string;
    const reference = await dnsperf(server, queries, 8);
    console.log('10,000-name zone (local fixture DNS server, UDP)');
    console.log(`  names checked         ${f(result.subdomains.length)} in ${f(run.seconds, 2)} s`);
    console.log(`  names per second      ${f(result.subdomains.length / run.seconds)}`);
    console.log(`  DNS queries           ${f(result.stats.dnsQueries)}, ${f(engineQps)} per second`);
    console.log(`  dnsperf, same server  ${f(reference)} queries per second`);
    console.log(`  engine / dnsperf      ${f((100 * engineQps) / reference, 1)} %`);
    console.log(`  errors                ${result.errors.length}`);
    console.log(`  peak RSS              ${f(run.peakMb, 1)} MB (sampled)`);
  } finally {
    await stop(fixtures);
  }
}

async function domainBenchmark() {
  const fixtures = await startFixtures('domain', 1000);
  try {
    const run = await measured(() =>
      scanDomain(fixtures.apex, {
        ...fixtures.options,
        subdomains: fixtures.names.filter((n) => n.endsWith(`.${fixtures.apex}`)),
        discovery: false,
        ct: false,
        validationDelayMs: 1000,
        timeoutMs: 2000,
      }),
    );
    const result = run.value;
    const byStatus = Object.groupBy(result.findings, (x) => x.status);
    console.log('1,000-subdomain domain, end to end with HTTP/HTTPS probes and validation');
    console.log(`  time                  ${f(run.seconds, 2)} s (budget 30 s)`);
    console.log(`  names checked         ${f(result.subdomains.length)}`);
    console.log(
      `  findings              ${result.findings.length} (claimable ${byStatus.claimable?.length ?? 0}, ` +
        `likely ${byStatus.likely?.length ?? 0}, review ${byStatus.review?.length ?? 0}); ` +
        `filtered by validation ${result.stats.filtered}`,
    );
    console.log(`  DNS queries           ${f(result.stats.dnsQueries)}`);
    console.log(`  errors                ${result.errors.length}`);
    console.log(`  peak RSS              ${f(run.peakMb, 1)} MB (sampled)`);
  } finally {
    await stop(fixtures);
  }
}

await zoneBenchmark();
console.log('');
await domainBenchmark();
console.log(`\nprocess max RSS ${f(process.resourceUsage().maxRSS / 1024, 1)} MB`);
