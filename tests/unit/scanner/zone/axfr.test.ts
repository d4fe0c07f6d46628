import type { AddressInfo } from 'node:net';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAxfrServer, readAxfr, ZoneTransferError } from '../../../../src/scanner/zone/axfr.ts';
import type { ZoneRecord } from '../../../../src/scanner/zone/record.ts';
import { type DnsFixture, startDnsServer, type Zone } from '../../../fixtures/dns-server.ts';

const apex = 'xfr.test';
let dns: DnsFixture;

beforeAll(async () => {
  const zone: Zone = new Map([
    [
      apex,
      [
        { type: 'SOA', data: 'ns1.xfr.test' },
        { type: 'NS', data: 'ns1.xfr.test' },
        { type: 'MX', data: { preference: 10, exchange: 'Mail.Example.NET.' } },
      ],
    ],
    [
      `www.${apex}`,
      [
        { type: 'A', data: '192.0.2.10' },
        { type: 'AAAA', data: '2001:DB8::1' },
      ],
    ],
    [`old.${apex}`, [{ type: 'CNAME', data: 'dw-old.azurewebsites.net' }]],
    [`_spf.${apex}`, [{ type: 'TXT', data: 'v=spf1 include:gone.example ~all' }]],
    [`deep.sub.${apex}`, [{ type: 'CNAME', data: 'deep.example.org' }]],
    ['elsewhere.test', [{ type: 'A', data: '192.0.2.99' }]],
  ]);
  dns = await startDnsServer({ zone, axfr: { zones: new Set([apex]), perMessage: 2 } });
});
afterAll(async () => {
  await dns?.close();
});

const server = () => ({ host: '127.0.0.1', port: dns.port });

async function collect(records: AsyncIterable<ZoneRecord>) {
  const out: ZoneRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

async function failure(records: AsyncIterable<ZoneRecord>) {
  try {
    await collect(records);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the transfer succeeded');
}

describe('readAxfr', () => {
  it('reads a transfer spread over several messages, from the SOA to the closing SOA', async () => {
    const records = await collect(
      readAxfr({ zone: 'XFR.test.', server: server(), allowPrivate: ['127.0.0.1'] }),
    );
    expect(records).toEqual([
      { name: apex, type: 'SOA', ttl: 60, data: 'ns1.xfr.test hostmaster.ns1.xfr.test 1 3600 600 86400 60' },
      { name: apex, type: 'NS', ttl: 60, data: 'ns1.xfr.test' },
      { name: apex, type: 'MX', ttl: 60, data: '10 mail.example.net' },
      { name: `www.${apex}`, type: 'A', ttl: 60, data: '192.0.2.10' },
      { name: `www.${apex}`, type: 'AAAA', ttl: 60, data: '2001:db8::1' },
      { name: `old.${apex}`, type: 'CNAME', ttl: 60, data: 'dw-old.azurewebsites.net' },
      { name: `_spf.${apex}`, type: 'TXT', ttl: 60, data: 'v=spf1 include:gone.example ~all' },
      { name: `deep.sub.${apex}`, type: 'CNAME', ttl: 60, data: 'deep.example.org' },
    ]);
    expect(dns.queries.at(-1)).toMatchObject({ name: apex, type: 'AXFR' });
  });

  it('a record added to the zone is in the next transfer', async () => {
    dns.add(`new.${apex}`, { type: 'CNAME', data: 'fresh.example.net' });
    const records = await collect(readAxfr({ zone: apex, server: server(), allowPrivate: true }));
    expect(records).toContainEqual({
      name: `new.${apex}`,
      type: 'CNAME',
      ttl: 60,
      data: 'fresh.example.net',
    });
  });

  it('a slow consumer is not a silent server: the timeout runs only while waiting for the server', async () => {
    let read = 0;
    for await (const _ of readAxfr({ zone: apex, server: server(), allowPrivate: true, timeoutMs: 100 })) {
      read++;
      if (read <= 3) await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(read).toBeGreaterThanOrEqual(8);
  });

  it('a refusal is an error naming the server and the answer', async () => {
    const error = await failure(readAxfr({ zone: 'elsewhere.test', server: server(), allowPrivate: true }));
    expect(error).toBeInstanceOf(ZoneTransferError);
    expect(error.message).toBe(
      `zone transfer server 127.0.0.1:${dns.port} refused the transfer of elsewhere.test: REFUSED`,
    );
    dns.axfr.refusal = 'NOTAUTH';
    try {
      const notauth = await failure(
        readAxfr({ zone: 'elsewhere.test', server: server(), allowPrivate: true }),
      );
      expect(notauth.message).toMatch(/refused the transfer of elsewhere\.test: NOTAUTH$/);
    } finally {
      dns.axfr.refusal = 'REFUSED';
    }
  });

  it('a silent server is a timeout error, never an empty zone', async () => {
    dns.behaviours.set('slow.test', 'timeout');
    const started = Date.now();
    const error = await failure(
      readAxfr({ zone: 'slow.test', server: server(), allowPrivate: true, timeoutMs: 300 }),
    );
    expect(error).toBeInstanceOf(ZoneTransferError);
    expect(error.message).toBe(`zone transfer server 127.0.0.1:${dns.port} sent nothing for 300 ms`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a private address unless allowed, before connecting', async () => {
    const before = dns.queries.length;
    const error = await failure(readAxfr({ zone: apex, server: server() }));
    expect(error.message).toMatch(
      /^zone transfer server 127\.0\.0\.1:\d+ \(127\.0\.0\.1\) is refused: private/,
    );
    expect(dns.queries.length).toBe(before);
  });

  it('a closed port is a clear error', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(
      readAxfr({ zone: apex, server: { host: '127.0.0.1', port }, allowPrivate: true }),
    );
    expect(error.message).toBe(`cannot connect to zone transfer server 127.0.0.1:${port}: ECONNREFUSED`);
  });

  describe('against a misbehaving server', () => {
    let raw: net.Server;
    let port = 0;
    let script: (id: number, socket: net.Socket) => void = () => {};
    beforeAll(async () => {
      raw = net.createServer((socket) => {
        socket.once('data', (chunk) => script(dnsPacket.decode(chunk.subarray(2)).id ?? 0, socket));
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      port = (raw.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    });
    const soa = {
      name: apex,
      type: 'SOA' as const,
      ttl: 60,
      data: {
        mname: 'ns1.xfr.test',
        rname: 'h.xfr.test',
        serial: 7,
        refresh: 1,
        retry: 1,
        expire: 1,
        minimum: 1,
      },
    };
    const read = () =>
      collect(readAxfr({ zone: apex, server: { host: '127.0.0.1', port }, allowPrivate: true }));

    it('a connection closed before the closing SOA is an error, not a short zone', async () => {
      script = (id, socket) =>
        socket.end(
          dnsPacket.streamEncode({
            type: 'response',
            id,
            answers: [soa, { name: `a.${apex}`, type: 'A', ttl: 1, data: '192.0.2.1' }],
          }),
        );
      const error = await read().catch((e: Error) => e);
      expect((error as Error).message).toBe(
        `zone transfer server 127.0.0.1:${port} closed the connection before the end of ${apex} (2 records read)`,
      );
    });

    it('a malformed message is an error naming the server', async () => {
      script = (_id, socket) => socket.end(Buffer.from([0, 5, 1, 2, 3, 4, 5]));
      const error = await read().catch((e: Error) => e);
      expect((error as Error).message).toMatch(
        new RegExp(`^zone transfer server 127.0.0.1:${port} sent a malformed message`),
      );
    });

    it('a transfer that does not open with the SOA is refused', async () => {
      script = (id, socket) =>
        socket.end(
          dnsPacket.streamEncode({
            type: 'response',
            id,
            answers: [{ name: `a.${apex}`, type: 'A', ttl: 1, data: '192.0.2.1' }],
          }),
        );
      const error = await read().catch((e: Error) => e);
      expect((error as Error).message).toBe(
        `zone transfer server 127.0.0.1:${port} did not start the transfer of ${apex} with its SOA`,
      );
    });

    it('shows records of types it does not read in the generic form, and skips other zones', async () => {
      script = (id, socket) =>
        socket.end(
          dnsPacket.streamEncode({
            type: 'response',
            id,
            answers: [
              soa,
              {
                name: `_sip._tcp.${apex}`,
                type: 'SRV',
                ttl: 5,
                data: { priority: 10, weight: 5, port: 5060, target: 'SIP.example.net.' },
              },
              {
                name: `x.${apex}`,
                type: 'SSHFP',
                ttl: 5,
                data: { algorithm: 1, hash: 1, fingerprint: 'ab'.repeat(20) },
              },
              { name: 'glue.other.test', type: 'A', ttl: 5, data: '192.0.2.7' },
              soa,
            ],
          }),
        );
      const records = await read();
      expect(records.map((r) => `${r.name} ${r.type} ${r.data}`)).toEqual([
        `${apex} SOA ns1.xfr.test h.xfr.test 7 1 1 1 1`,
        `_sip._tcp.${apex} SRV 10 5 5060 sip.example.net`,
        `x.${apex} SSHFP \\# 22 0101${'ab'.repeat(20)}`,
      ]);
    });
  });
});

describe('parseAxfrServer', () => {
  it('reads host, host:port and IPv6 forms', () => {
    expect(parseAxfrServer('ns1.example.com')).toEqual({ host: 'ns1.example.com', port: 53 });
    expect(parseAxfrServer('192.0.2.1:5353')).toEqual({ host: '192.0.2.1', port: 5353 });
    expect(parseAxfrServer('[2001:db8::1]:54')).toEqual({ host: '2001:db8::1', port: 54 });
    expect(parseAxfrServer('2001:db8::1')).toEqual({ host: '2001:db8::1', port: 53 });
    expect(() => parseAxfrServer('ns1.example.com:70000')).toThrow(/invalid port/);
    expect(() => parseAxfrServer('http://x')).toThrow(/invalid zone transfer server/);
  });
});
