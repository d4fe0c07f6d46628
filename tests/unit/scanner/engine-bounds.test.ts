import http from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from '../../../src/connectors/rdap/rdap.ts';
import { type Candidate, ScanContext, type Settings } from '../../../src/scanner/context.ts';
import { detectExpiring, RDAP_WIDTH } from '../../../src/scanner/detect/expiring.ts';
import { CACHED_ANSWERS, DnsPool, RecentAnswers } from '../../../src/scanner/dns/resolver.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { ipv4Number } from '../../../src/scanner/net/range-index.ts';
import { NameSet } from '../../../src/scanner/phases/names.ts';
import { Progress } from '../../../src/scanner/phases/progress.ts';
import { validate } from '../../../src/scanner/phases/validate.ts';
import { byOwner } from '../../../src/scanner/phases/zone-input.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';

let server: DnsFixture;
beforeAll(async () => {
  server = await startDnsServer();
  server.add('a.d.test', { type: 'A', data: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
});

/** A scan context's settings for d.test, one request at a time. */
const settings = ({ timeoutMs, allowPrivate }: Pick<Settings, 'timeoutMs' | 'allowPrivate'>): Settings => ({
  domain: 'd.test',
  timeoutMs,
  httpTimeoutMs: timeoutMs,
  ports: { http: 80, https: 443 },
  allowPrivate,
  nameserverPort: 53,
  maxBodyBytes: 1024,
  perServiceConcurrency: 1,
  perServiceRate: 1,
  catalogue,
});

const pool = () =>
  new DnsPool({ servers: [`127.0.0.1:${server.port}`], timeoutMs: 300, tries: 1, concurrency: 8 });

describe('the answers a scan keeps', () => {
  it('keeps the most recently used answers up to its bound', () => {
    const recent = new RecentAnswers<number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    // Read, 'a' becomes the most recent: 'b' is the one to go.
    expect(recent.get('a')).toBe(1);
    recent.set('c', 3);
    expect(recent.size).toBe(2);
    expect(recent.get('b')).toBeUndefined();
    expect(recent.get('a')).toBe(1);
    expect(recent.get('c')).toBe(3);
  });

  it('asks a question again once its answer has left the bound', async () => {
    const dns = pool();
    await dns.query('a.d.test', 'A');
    await dns.query('a.d.test', 'A');
    expect(dns.queries).toBe(1);
    for (let i = 0; i < CACHED_ANSWERS; i++) await dns.query(`n${i}.d.test`, 'A');
    const asked = dns.queries;
    await dns.query('a.d.test', 'A');
    expect(dns.queries).toBe(asked + 1);
    dns.close();
  });

  it('does not keep an answer asked once, but takes one it already has', async () => {
    const dns = pool();
    await dns.address('a.d.test', 'A', { once: true });
    await dns.address('a.d.test', 'A', { once: true });
    expect(dns.queries).toBe(2);
    const kept = await dns.address('a.d.test', 'A');
    expect(await dns.address('a.d.test', 'A', { once: true })).toBe(kept);
    expect(dns.queries).toBe(3);
    dns.close();
  });
});

describe('the names of a scan', () => {
  it('hands over each admitted name once, in the order they came; dispatch tells those already handed over', () => {
    const names = new NameSet('d.test', 100, 10);
    for (const name of ['a.d.test', 'b.d.test', 'c.d.test']) names.admit(name, 'given', 'test');
    names.dispatch('b.d.test');
    const taken = names.takeAdmitted();
    expect(taken.filter((name) => names.dispatch(name))).toEqual(['a.d.test', 'c.d.test']);
    expect(names.takeAdmitted()).toEqual([]);
    names.admit('a.d.test', 'ct', 'test');
    names.admit('d.d.test', 'ct', 'test');
    expect(names.takeAdmitted()).toEqual(['d.d.test']);
  });
});

describe('cloud address ranges', () => {
  it('reads IPv4 addresses as net.isIPv4 takes them', () => {
    const texts = ['1.2.3.4', '0.0.0.0', '255.255.255.255', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5'];
    const more = ['1..2.3', '1.2.3.4.', '.1.2.3', 'a.b.c.d', '::1', '::ffff:1.2.3.4', '1.2.3.04', ''];
    for (const text of [...texts, ...more]) expect(ipv4Number(text) !== undefined).toBe(isIP(text) === 4);
    expect(ipv4Number('1.2.3.4')).toBe(0x01020304);
    expect(ipv4Number('255.255.255.255')).toBe(2 ** 32 - 1);
  });

  it('names the first listed range holding an address, IPv4 or IPv6', () => {
    const ctx = new ScanContext(settings({ timeoutMs: 100, allowPrivate: false }), pool(), undefined, 1, [
      { cidr: '3.0.0.0/9', provider: 'First' },
      { cidr: '3.64.0.0/10', provider: 'Inside the first' },
      { cidr: '2600:1f00::/24', provider: 'Six' },
    ]);
    expect(ctx.cloudProvider('3.127.255.255')).toBe('First');
    expect(ctx.cloudProvider('3.0.0.0')).toBe('First');
    expect(ctx.cloudProvider('3.128.0.0')).toBeUndefined();
    expect(ctx.cloudProvider('2.255.255.255')).toBeUndefined();
    expect(ctx.cloudProvider('2600:1f00::1')).toBe('Six');
    expect(ctx.cloudProvider('2600:1e00::1')).toBeUndefined();
  });
});

describe('zone records from any source', () => {
  it('takes records with the fields a record has and refuses every other shape', async () => {
    const good = { name: 'a.d.test', type: 'A', ttl: 60, data: '127.0.0.1' };
    const bad: unknown[] = [
      null,
      'a.d.test A 127.0.0.1',
      { ...good, name: '' },
      { ...good, name: `${'a'.repeat(250)}.d.test` },
      { ...good, name: 42 },
      { ...good, type: '' },
      { ...good, type: 'A'.repeat(17) },
      { ...good, ttl: Number.NaN },
      { ...good, ttl: Number.POSITIVE_INFINITY },
      { ...good, ttl: '60' },
      { ...good, data: 7 },
      { ...good, data: 'x'.repeat(65_536) },
    ];
    async function* stream() {
      yield* bad;
      yield good;
      yield { ...good, type: 'mx', data: '10 mx.d.test' };
    }
    const refused: unknown[] = [];
    const groups = [];
    for await (const group of byOwner(stream() as AsyncIterable<never>, (record) => refused.push(record)))
      groups.push(group);
    expect(refused).toEqual(bad);
    expect(groups).toEqual([
      {
        name: 'a.d.test',
        known: { a: ['127.0.0.1'], aaaa: [], ns: [], mx: ['10 mx.d.test'], txt: [], srv: [] },
      },
    ]);
  });
});

describe('registrations about to lapse', () => {
  it('asks the registry about several domains at once, within its bound, and keeps their order', async () => {
    let open = 0;
    let most = 0;
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const registry = http.createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      const domain = decodeURIComponent(/\/domain\/(.+)$/.exec(req.url ?? '')?.[1] ?? '');
      // Each answer takes a moment: lookups asked one at a time would never overlap.
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'application/rdap+json' });
        res.end(
          JSON.stringify({ ldhName: domain, events: [{ eventAction: 'expiration', eventDate: soon }] }),
        );
      }, 30);
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
    try {
      const ctx = new ScanContext(
        settings({ timeoutMs: 2000, allowPrivate: ['127.0.0.1'] }),
        pool(),
        new Rdap(url, 2000),
        1,
        [],
      );
      const domains = Array.from({ length: 3 * RDAP_WIDTH }, (_, i) => `dw-lapse-${i}.com`);
      for (const domain of domains) ctx.notePointer(`x.d.test`, 'CNAME', `www.${domain}`);
      const found = await detectExpiring(ctx);
      expect(found.map((candidate) => candidate.finding.target)).toEqual(domains.map((d) => `www.${d}`));
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(RDAP_WIDTH);
    } finally {
      await new Promise((resolve) => registry.close(resolve));
    }
  });
});

describe('validation', () => {
  it('checks each candidate again a delay after it was found, the longest waiting first', async () => {
    const rechecked: string[] = [];
    const candidate = (name: string, foundAt: number): Candidate => ({
      kind: 'dangling-cname',
      finding: {
        subdomain: name,
        recordType: 'CNAME',
        target: 'gone.example',
        service: 'example',
        status: 'review',
        risk: 'low',
        evidence: [],
        explanation: '',
        proofOfConcept: '',
        remediation: '',
      },
      recheck: async () => {
        rechecked.push(name);
        return 'still there';
      },
      foundAt,
    });
    const now = performance.now();
    const { findings } = await validate(
      [candidate('late.d.test', now), candidate('early.d.test', now - 60)],
      {
        enabled: true,
        delayMs: 60,
        width: 1,
        signal: new AbortController().signal,
        progress: new Progress(undefined),
      },
    );
    expect(rechecked).toEqual(['early.d.test', 'late.d.test']);
    expect(findings.map((f) => f.evidence.at(-1))).toEqual(['still there', 'still there']);
  });
});
