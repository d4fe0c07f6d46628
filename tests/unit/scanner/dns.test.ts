import net from 'node:net';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAIN, resolveChain } from '../../../src/scanner/dns/chain.ts';
import { queryDirect } from '../../../src/scanner/dns/direct.ts';
import { DnsPool, parseServer } from '../../../src/scanner/dns/resolver.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';

let server: DnsFixture;
let other: DnsFixture;

beforeAll(async () => {
  server = await startDnsServer();
  other = await startDnsServer();
  server.add('a.d.test', { type: 'A', data: '127.0.0.1' });
  server.add('a.d.test', { type: 'AAAA', data: '::1' });
  server.add('one.d.test', { type: 'CNAME', data: 'two.d.test' });
  server.add('two.d.test', { type: 'CNAME', data: 'a.d.test' });
  server.add('dangling.d.test', { type: 'CNAME', data: 'gone.d.test' });
  server.add('loop1.d.test', { type: 'CNAME', data: 'loop2.d.test' });
  server.add('loop2.d.test', { type: 'CNAME', data: 'loop1.d.test' });
  for (let i = 0; i <= MAX_CHAIN + 1; i++)
    server.add(`deep${i}.d.test`, { type: 'CNAME', data: `deep${i + 1}.d.test` });
  server.add('txt.d.test', { type: 'TXT', data: 'v=spf1 -all' });
  server.add('six.d.test', { type: 'AAAA', data: '::1' });
  server.add('d.test', { type: 'MX', data: { preference: 10, exchange: 'mx.d.test' } });
  server.behaviours.set('servfail.d.test', 'servfail');
  server.behaviours.set('refused.d.test', 'refused');
  server.behaviours.set('slow.d.test', 'timeout');
  server.behaviours.set('chain-fail.d.test', 'servfail');
  server.add('to-fail.d.test', { type: 'CNAME', data: 'chain-fail.d.test' });
  for (let i = 0; i < 600; i++) server.add(`bulk${i}.d.test`, { type: 'A', data: '127.0.0.1' });
  other.add('a.d.test', { type: 'A', data: '127.0.0.9' });
});
afterAll(async () => {
  await server?.close();
  await other?.close();
});

const pool = (extra: Partial<ConstructorParameters<typeof DnsPool>[0]> = {}) =>
  new DnsPool({ servers: [`127.0.0.1:${server.port}`], timeoutMs: 300, tries: 1, concurrency: 32, ...extra });

describe('lookups', () => {
  it('keeps NXDOMAIN, NODATA, SERVFAIL, REFUSED and timeout apart', async () => {
    const dns = pool();
    expect((await dns.query('nothing.d.test', 'A')).status).toBe('nxdomain');
    expect((await dns.query('a.d.test', 'MX')).status).toBe('nodata');
    expect((await dns.query('servfail.d.test', 'A')).status).toBe('servfail');
    expect((await dns.query('refused.d.test', 'A')).status).toBe('refused');
    expect((await dns.query('slow.d.test', 'A')).status).toBe('timeout');
    expect(await dns.query('a.d.test', 'A')).toMatchObject({ status: 'ok', records: ['127.0.0.1'] });
    expect(await dns.query('txt.d.test', 'TXT')).toMatchObject({ records: ['v=spf1 -all'] });
    expect(await dns.query('d.test', 'MX')).toMatchObject({ records: ['10 mx.d.test'] });
  });

  it('answers a repeated question from the per-scan cache, and a fresh one from the server', async () => {
    const dns = pool();
    await dns.query('a.d.test', 'A');
    await dns.query('a.d.test', 'A');
    expect(dns.queries).toBe(1);
    await dns.query('a.d.test', 'A', { fresh: true });
    expect(dns.queries).toBe(2);
  });

  it('sends a fresh lookup to another resolver than the one to avoid', async () => {
    const dns = new DnsPool({
      servers: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`],
      timeoutMs: 300,
      tries: 1,
      concurrency: 4,
    });
    for (let i = 0; i < 4; i++) {
      const answer = await dns.query('a.d.test', 'A', { fresh: true, avoid: `127.0.0.1:${server.port}` });
      expect(answer).toMatchObject({ records: ['127.0.0.9'] });
    }
  });

  it('resolves 600 names with 200 in flight and loses none', async () => {
    // A lost question still shows as a timeout; the long wait only keeps a busy CI machine,
    // where the fixture server shares the process, from reading as a loss.
    const dns = pool({ concurrency: 200, timeoutMs: 5_000 });
    const answers = await Promise.all(
      Array.from({ length: 600 }, (_, i) => dns.query(`bulk${i}.d.test`, 'A')),
    );
    expect(answers.filter((a) => a.status !== 'ok')).toEqual([]);
  });

  it('parses resolver addresses with and without ports', () => {
    expect(parseServer('127.0.0.1')).toBe('127.0.0.1');
    expect(parseServer('127.0.0.1:5353')).toBe('127.0.0.1:5353');
    expect(parseServer('[::1]:5353')).toBe('[::1]:5353');
    expect(parseServer('::1')).toBe('::1');
    expect(() => parseServer('dns.example')).toThrow(/invalid resolver/);
    expect(() => parseServer('127.0.0.1:70000')).toThrow(/port/);
  });
});

describe('CNAME chains', () => {
  it('follows every hop and reads the addresses at the end, from one question', async () => {
    const dns = pool();
    const res = await resolveChain(dns, 'one.d.test');
    expect(res).toMatchObject({
      status: 'exists',
      chain: ['two.d.test', 'a.d.test'],
      a: ['127.0.0.1'],
      // IPv6 is asked only where IPv4 has no address.
      aaaa: [],
    });
    expect(dns.queries).toBe(1);
  });

  it('asks AAAA where the name has no IPv4 address', async () => {
    const dns = pool();
    expect(await resolveChain(dns, 'six.d.test')).toMatchObject({ status: 'exists', a: [], aaaa: ['::1'] });
    expect(dns.queries).toBe(2);
  });

  it('ends in NXDOMAIN only when the last name does not exist', async () => {
    expect(await resolveChain(pool(), 'dangling.d.test')).toMatchObject({
      status: 'nxdomain',
      terminal: 'gone.d.test',
    });
    expect((await resolveChain(pool(), 'to-fail.d.test')).status).toBe('servfail');
  });

  it('stops on loops and on chains deeper than the limit', async () => {
    expect((await resolveChain(pool(), 'loop1.d.test')).status).toBe('loop');
    expect((await resolveChain(pool(), 'deep0.d.test')).status).toBe('too-deep');
  });
});

describe('the fixture and the direct client', () => {
  it('answers over TCP too', async () => {
    const reply = await new Promise<dnsPacket.Packet>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write(
          dnsPacket.streamEncode({ type: 'query', id: 7, questions: [{ type: 'A', name: 'a.d.test' }] }),
        );
      });
      socket.once('data', (data) => {
        socket.end();
        resolve(dnsPacket.streamDecode(data));
      });
      socket.once('error', reject);
    });
    expect(reply.answers?.[0]).toMatchObject({ type: 'A', data: '127.0.0.1' });
  });

  it('reads the server’s own rcode without recursion', async () => {
    const options = { timeoutMs: 300, tries: 1, allowPrivate: ['127.0.0.1'] };
    expect((await queryDirect('127.0.0.1', server.port, 'refused.d.test', 'SOA', options)).rcode).toBe(
      'REFUSED',
    );
    expect((await queryDirect('127.0.0.1', server.port, 'nothing.d.test', 'A', options)).rcode).toBe(
      'NXDOMAIN',
    );
    expect((await queryDirect('127.0.0.1', server.port, 'slow.d.test', 'A', options)).rcode).toBe('TIMEOUT');
  });
});
