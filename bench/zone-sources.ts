// `node bench/zone-sources.ts`: the zone sources (zone files, AXFR, provider APIs) against local
// fixtures. Prints figures and the targets next to them; enforces nothing. Each part runs in a
// process of its own, so its memory figures are its own:
//  parse      a generated 100,000-record BIND file parsed as a stream: records/s, peak RSS;
//  providers  a 10,000-record zone read from each provider's loopback fake (served by another
//             process), at page sizes no larger than the real APIs': seconds per provider;
//  scan       the 100,000-record zone file scanned end to end against the DNS fixture: peak RSS.
// A part imports only what it measures, and the zone file is written by a process of its own, so
// neither the SDKs nor the writing count in the memory of the parse and the scan. Each process
// runs with the runtime settings the danglewatch command runs with.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { restartWithRuntimeSettings } from '../bin/runtime.js';
import type { ProviderCallOptions } from '../src/connectors/dns/provider.ts';
import type { ScanOptions } from '../src/scanner/types.ts';
import type { ZoneRecord } from '../src/scanner/zone/record.ts';

restartWithRuntimeSettings(import.meta.filename);

const TARGET = { rssMb: 300, providerSeconds: 10 };
const FILE_RECORDS = 100_000;
const PROVIDER_RECORDS = 10_000;
/** bench/fixtures.ts's zone: one record a name, and an AAAA on every third: 75,000 names, 100,000 records. */
const FILE_NAMES = 75_000;
const APEX = 'bench.test';
const FIXTURE_IP = '127.0.0.1';

/**
 * `12,345.6`: thousands separated, trailing zeros dropped. Not `toLocaleString`: its ICU data
 * (7 MB) would count in the kernel's high-water mark printed as this process's memory.
 */
function f(n: number, digits = 0) {
  const [whole = '', fraction = ''] = n.toFixed(digits).split('.');
  const kept = fraction.replace(/0+$/, '');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${kept ? `.${kept}` : ''}`;
}
const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/** Peak resident memory of this process while `work` runs, sampled. */
async function measured<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      seconds: (performance.now() - started) / 1000,
      peakMb: peak / 2 ** 20,
      beforeMb: before / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

/** The same zone as bench/fixtures.ts serves in its `zone` mode, written line by line. */
async function writeZoneFile(path: string) {
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write(`$ORIGIN ${APEX}.\n$TTL 300\n@ IN SOA ns1 hostmaster ( 1 7200 900 1209600 300 )\n`);
  let records = 0;
  for (let i = 0; records < FILE_RECORDS - 1; i++) {
    await write(i % 5 === 0 ? `h${i} CNAME h${i + 1}\n` : `h${i} A ${FIXTURE_IP}\n`);
    records++;
    if (i % 3 === 0 && records < FILE_RECORDS - 1) {
      await write(`    AAAA ::1 ; the same owner\n`);
      records++;
    }
  }
  out.end();
  await once(out, 'finish');
}

async function count(records: AsyncIterable<ZoneRecord>) {
  let n = 0;
  for await (const _ of records) n++;
  return n;
}

/** The zone file, written by a child process. */
async function zoneFileInChild(dir: string) {
  const path = join(dir, 'bench.test.zone');
  await once(spawn(process.execPath, [import.meta.filename, 'write', path], { stdio: 'inherit' }), 'exit');
  return path;
}

async function parseBenchmark() {
  const { readZoneFile } = await import('../src/scanner/zone/zone-file.ts');
  const dir = mkdtempSync(join(tmpdir(), 'dw-zone-bench-'));
  try {
    const path = await zoneFileInChild(dir);
    const run = await measured(() => count(readZoneFile(path, { zone: APEX })));
    console.log(`zone file: ${f(run.value)} records parsed as a stream`);
    console.log(`  records/s             ${f(run.value / run.seconds)} (${f(run.seconds, 2)} s)`);
    console.log(
      `  peak RSS              ${f(run.peakMb, 1)} MB (sampled, ${f(run.beforeMb, 1)} MB before; target < ${TARGET.rssMb}: ${mark(run.peakMb < TARGET.rssMb)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface FakesInfo {
  cloudflare: string;
  route53: string;
  digitalocean: string;
  google: { url: string; tokenUrl: string; serviceAccountJson: string };
  /** Public DNS as the product sync asks it: the zone delegated to the Cloudflare fake. */
  resolver: string;
}
const SECRETS = {
  token: 'bench-token-0123456789abcdef',
  key: 'AKIABENCH00000000001',
  secret: 'bench/secret/0123456789abcdefghij',
};
/** Page sizes no larger than each API's own maximum (Route 53: 300 record sets a call). */
const PAGES = { cloudflare: 1000, route53: 300, digitalocean: 200, google: 1000 };

/** The four fakes with the same 10,000-record zone, in this (child) process. */
async function serveFakes() {
  const [
    { startCloudflareFake },
    { startRoute53Fake },
    { startDigitalOceanFake },
    { startGoogleFake },
    { assignedNameServers },
    { startDnsServer },
  ] = await Promise.all([
    import('../tests/fixtures/dns-providers/cloudflare.ts'),
    import('../tests/fixtures/dns-providers/route53.ts'),
    import('../tests/fixtures/dns-providers/digitalocean.ts'),
    import('../tests/fixtures/dns-providers/gcloud.ts'),
    import('../tests/fixtures/dns-providers/fake-server.ts'),
    import('../tests/fixtures/dns-server.ts'),
  ]);
  const records: ZoneRecord[] = [];
  for (let i = 0; records.length < PROVIDER_RECORDS; i++) {
    const name = `h${i}.${APEX}`;
    records.push(
      i % 5 === 0
        ? { name, type: 'CNAME', ttl: 300, data: `app-${i}.example.net` }
        : { name, type: 'A', ttl: 300, data: '192.0.2.1' },
    );
  }
  const [cloudflare, route53, digitalocean, google] = await Promise.all([
    startCloudflareFake({ token: SECRETS.token, pageSize: PAGES.cloudflare }),
    startRoute53Fake({ accessKeyId: SECRETS.key, secretAccessKey: SECRETS.secret, pageSize: PAGES.route53 }),
    startDigitalOceanFake({ token: SECRETS.token, pageSize: PAGES.digitalocean }),
    startGoogleFake({ pageSize: PAGES.google }),
  ]);
  for (const fake of [cloudflare, route53, digitalocean, google]) fake.zones.set(APEX, records);
  const dns = await startDnsServer();
  for (const ns of assignedNameServers(cloudflare, APEX, 'cloudflare'))
    dns.add(APEX, { type: 'NS', data: ns });
  const info: FakesInfo = {
    resolver: `127.0.0.1:${dns.port}`,
    cloudflare: cloudflare.url,
    route53: route53.url,
    digitalocean: digitalocean.url,
    google: { url: google.url, tokenUrl: google.tokenUrl, serviceAccountJson: google.serviceAccountJson },
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () =>
    Promise.all([cloudflare, route53, digitalocean, google, dns].map((fake) => fake.close())).then(() =>
      process.exit(0),
    ),
  );
}

async function child(part: string): Promise<{ child: ChildProcess; first: string }> {
  const proc = spawn(process.execPath, [import.meta.filename, part], { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout as NodeJS.ReadableStream }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`${part} exited with ${code}`)));
  });
  return { child: proc, first };
}

async function providerBenchmark() {
  const { providers } = await import('../src/scanner/zone/providers/index.ts');
  const fakes = await child('fakes');
  const info = JSON.parse(fakes.first) as FakesInfo;
  try {
    const base: ProviderCallOptions = { env: {}, pageSize: 5000 };
    const cases: Array<[string, () => AsyncIterable<ZoneRecord>]> = [
      [
        'Cloudflare',
        () =>
          providers.cloudflare.readZone({ apiToken: SECRETS.token }, APEX, {
            ...base,
            baseUrl: info.cloudflare,
          }),
      ],
      [
        'Route 53',
        () =>
          providers.route53.readZone({ accessKeyId: SECRETS.key, secretAccessKey: SECRETS.secret }, APEX, {
            ...base,
            baseUrl: info.route53,
          }),
      ],
      [
        'DigitalOcean',
        () =>
          providers.digitalocean.readZone({ token: SECRETS.token }, APEX, {
            ...base,
            baseUrl: info.digitalocean,
          }),
      ],
      [
        'Google Cloud DNS',
        () =>
          providers.gcloud.readZone({ serviceAccountJson: info.google.serviceAccountJson }, APEX, {
            ...base,
            baseUrl: info.google.url,
            env: { GOOGLE_OAUTH_TOKEN_URL: info.google.tokenUrl },
          }),
      ],
    ];
    console.log(`provider APIs: a ${f(PROVIDER_RECORDS)}-record zone read from each loopback fake`);
    for (const [label, read] of cases) {
      const run = await measured(() => count(read()));
      console.log(
        `  ${label.padEnd(18)}${f(run.seconds, 2)} s, ${f(run.value)} records (target < ${TARGET.providerSeconds} s: ${mark(run.seconds < TARGET.providerSeconds && run.value === PROVIDER_RECORDS)})`,
      );
    }
    console.log(
      `  page sizes: Cloudflare ${PAGES.cloudflare}, Route 53 ${PAGES.route53}, DigitalOcean ${PAGES.digitalocean}, Cloud DNS ${PAGES.google}`,
    );
  } finally {
    fakes.child.stdin?.end();
    await once(fakes.child, 'exit');
  }
}

async function scanBenchmark() {
  const [{ scanDomain }, { readZoneFile }] = await Promise.all([
    import('../src/scanner/scan.ts'),
    import('../src/scanner/zone/zone-file.ts'),
  ]);
  const fixtures = await child('dns');
  const started = JSON.parse(fixtures.first) as { apex: string; options: ScanOptions };
  const dir = mkdtempSync(join(tmpdir(), 'dw-zone-bench-'));
  try {
    const path = await zoneFileInChild(dir);
    const options: ScanOptions = {
      ...started.options,
      zoneRecords: readZoneFile(path, { zone: APEX }),
      discovery: false,
      ct: false,
      validation: false,
      concurrency: 128,
      timeoutMs: 2000,
      dnsTries: 2,
      maxNames: FILE_NAMES + 10,
    };
    const run = await measured(() => scanDomain(APEX, options));
    console.log(
      `zone file scanned end to end: ${f(FILE_RECORDS)} records, ${f(run.value.subdomains.length)} names checked`,
    );
    console.log(
      `  seconds               ${f(run.seconds, 1)} (${f(run.value.subdomains.length / run.seconds)} names/s), ${f(run.value.findings.length)} findings, ${f(run.value.errors.length)} errors`,
    );
    console.log(
      `  peak RSS              ${f(run.peakMb, 1)} MB (sampled, ${f(run.beforeMb, 1)} MB before; target < ${TARGET.rssMb}: ${mark(run.peakMb < TARGET.rssMb)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    fixtures.child.stdin?.end();
    await once(fixtures.child, 'exit');
  }
}

/**
 * The DNS fixture of bench/fixtures.ts (its `zone` mode) with the zone file's names, in a child
 * process. It lists no names: the scan reads them from the file, and a list of 75,000 names held
 * by the bench would count in the scan's memory.
 */
async function serveDns() {
  const proc = spawn(
    process.execPath,
    [join(import.meta.dirname, 'fixtures.ts'), 'zone', String(FILE_NAMES), 'no-names'],
    {
      stdio: ['pipe', 'inherit', 'inherit'],
    },
  );
  process.stdin.pipe(proc.stdin as NodeJS.WritableStream);
  await once(proc, 'exit');
}

/**
 * The product's sync of a connected zone: the provider read and the inventory stored and diffed in
 * the embedded database, twice after linking the zone (which reads it first): the second time with
 * nothing changed.
 */
async function syncBenchmark() {
  const [
    { openDatabase, migrateDatabase },
    { users, workspaces, dnsConnections },
    connections,
    { syncConnection },
    { personalContext },
  ] = await Promise.all([
    import('../src/db/client.ts'),
    import('../src/db/schema.ts'),
    import('../src/core/dns-connections/connections.ts'),
    import('../src/core/dns-connections/sync.ts'),
    import('../tests/helpers/context.ts'),
  ]);
  const { randomBytes } = await import('node:crypto');
  const { eq } = await import('drizzle-orm');
  const fakes = await child('fakes');
  const info = JSON.parse(fakes.first) as FakesInfo;
  const database = await openDatabase({ dataDir: undefined });
  try {
    await migrateDatabase(database);
    const db = database.db;
    const key = randomBytes(32);
    const options: ProviderCallOptions = { env: { CLOUDFLARE_API_URL: info.cloudflare } };
    await db.insert(users).values({ id: 'bench', email: `owner@${APEX}`, provider: 'google' });
    await db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, 'bench'));
    const ctx = personalContext('bench', { tier: 'pro-solo', email: `owner@${APEX}` });
    const secrets = { key };
    const made = await connections.createConnection(
      db,
      secrets,
      ctx,
      { provider: 'cloudflare', credentials: { apiToken: SECRETS.token } },
      options,
    );
    const [row] = await db.select().from(dnsConnections).where(eq(dnsConnections.id, made.id));
    if (!row) throw new Error('no connection');
    const queue = { enqueue: async () => {} };
    // Linking reads the zone once: the syncs measured below are its second and third reads.
    await connections.monitorZone(
      db,
      secrets,
      { queue, providerOptions: options, resolvers: [info.resolver] },
      ctx,
      { connectionId: made.id, zone: APEX, now: new Date() },
    );
    console.log(
      `product sync: a ${f(PROVIDER_RECORDS)}-record Cloudflare zone read and stored in the embedded database`,
    );
    for (const label of ['sync after linking', 'sync again, nothing changed']) {
      const run = await measured(() =>
        syncConnection(
          db,
          key,
          row,
          { providerOptions: options, resolvers: [info.resolver], queue },
          new Date(),
        ),
      );
      const update = run.value[0]?.update;
      console.log(
        `  ${label.padEnd(30)}${f(run.seconds, 2)} s, ${f(update?.records ?? 0)} records, ${f(update?.changedNames.length ?? 0)} changed (target < ${TARGET.providerSeconds} s: ${mark(run.seconds < TARGET.providerSeconds)})`,
      );
    }
  } finally {
    await database.close();
    fakes.child.stdin?.end();
    await once(fakes.child, 'exit');
  }
}

const part = process.argv[2];
if (part === 'fakes') await serveFakes();
else if (part === 'write') await writeZoneFile(process.argv[3] as string);
else if (part === 'dns') await serveDns();
else if (part === 'parse' || part === 'providers' || part === 'sync' || part === 'scan') {
  await { parse: parseBenchmark, providers: providerBenchmark, sync: syncBenchmark, scan: scanBenchmark }[
    part
  ]();
  const maxRss = process.resourceUsage().maxRSS / 1024;
  // The sync part holds an embedded database (PGlite), whose memory the zone's target is not about.
  if (part !== 'sync')
    console.log(
      `  process max RSS       ${f(maxRss, 1)} MB (kernel high-water mark; target < ${TARGET.rssMb}: ${mark(maxRss < TARGET.rssMb)})`,
    );
} else {
  for (const next of ['parse', 'providers', 'sync', 'scan']) {
    await once(spawn(process.execPath, [import.meta.filename, next], { stdio: 'inherit' }), 'exit');
    console.log('');
  }
}
