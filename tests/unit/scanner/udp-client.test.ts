import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UdpClient } from '../../../src/scanner/dns/udp-client.ts';
import { decodeReply, encodeQuery, TYPE } from '../../../src/scanner/dns/wire.ts';

/**
 * A resolver that misbehaves on purpose: over UDP it first sends replies that must be ignored (a
 * wrong id, a wrong question), then a truncated one; over TCP it gives the whole answer.
 */
let udp: dgram.Socket;
let tcp: net.Server;
let port = 0;
const answers = (name: string) => [
  { name, type: 'CNAME' as const, ttl: 60, data: `hop.${name}` },
  { name: `hop.${name}`, type: 'A' as const, ttl: 60, data: '192.0.2.7' },
];

beforeAll(async () => {
  tcp = net.createServer((socket) => {
    socket.once('data', (chunk) => {
      const query = dnsPacket.decode(chunk.subarray(2)) as DecodedPacket;
      const name = query.questions?.[0]?.name ?? '';
      const reply = dnsPacket.encode({
        type: 'response',
        id: query.id,
        questions: query.questions,
        answers: answers(name),
      });
      const head = Buffer.alloc(2);
      head.writeUInt16BE(reply.length);
      socket.end(Buffer.concat([head, reply]));
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  port = (tcp.address() as AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => {
    const query = dnsPacket.decode(msg) as DecodedPacket;
    const question = query.questions?.[0];
    const send = (packet: Buffer) => udp.send(packet, from.port, from.address);
    const base = { type: 'response' as const, questions: query.questions };
    send(
      dnsPacket.encode({
        ...base,
        id: ((query.id ?? 0) + 1) & 0xffff,
        answers: [{ name: question?.name ?? '', type: 'A', ttl: 60, data: '203.0.113.66' }],
      }),
    );
    send(
      dnsPacket.encode({
        ...base,
        id: query.id,
        questions: [{ name: 'other.test', type: 'A' }],
        answers: [{ name: 'other.test', type: 'A', ttl: 60, data: '203.0.113.66' }],
      }),
    );
    send(dnsPacket.encode({ ...base, id: query.id, flags: dnsPacket.TRUNCATED_RESPONSE }));
  });
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
});
afterAll(async () => {
  udp?.close();
  await new Promise((resolve) => tcp?.close(resolve));
});

describe('the DNS client', () => {
  it('ignores replies with another id or question, and asks again over TCP when truncated', async () => {
    const client = new UdpClient(`127.0.0.1:${port}`, 1000);
    try {
      const reply = await client.ask('www.udp.test', TYPE.A);
      expect(reply).not.toBe('timeout');
      if (reply === 'timeout') return;
      expect(reply.answers.map((a) => a.data)).toEqual(['hop.www.udp.test', '192.0.2.7']);
    } finally {
      client.close();
    }
  });

  it('reads a name with a dot inside a label as no host name, and a compression loop as no reply', () => {
    const query = encodeQuery(7, 'x.test', TYPE.CNAME);
    const reply = Buffer.from(
      dnsPacket.encode({
        type: 'response',
        id: 7,
        questions: [{ name: 'x.test', type: 'CNAME' }],
        answers: [],
      }),
    );
    // The answer count set to 1 and a name that points at itself.
    const looped = Buffer.concat([reply, Buffer.from([0xc0, reply.length])]);
    looped.writeUInt16BE(1, 6);
    expect(decodeReply(looped)).toBeUndefined();
    expect(decodeReply(query)).toBeUndefined();
    // A label holding a literal dot ("a.b" as one label) would read as two labels if decoded naively.
    const dotted = Buffer.from(
      dnsPacket.encode({
        type: 'response',
        id: 8,
        questions: [{ name: 'x.test', type: 'CNAME' }],
        answers: [{ name: 'x.test', type: 'CNAME', ttl: 60, data: 'aqqqb.evil.test' }],
      }),
    );
    dotted.write('.', dotted.indexOf('qqq') + 1, 'latin1');
    expect(decodeReply(dotted)?.answers[0]?.data).toBe('\\invalid');
  });
});

describe('tries', () => {
  it('sends a question again after each timeout while tries are left', async () => {
    // Drops the first datagram of every question; answers the next ones.
    const server = dgram.createSocket('udp4');
    const ids: number[] = [];
    server.on('message', (msg, from) => {
      const query = dnsPacket.decode(msg) as DecodedPacket;
      ids.push(query.id ?? -1);
      if (ids.length === 1) return;
      const name = query.questions?.[0]?.name ?? '';
      const reply = dnsPacket.encode({
        type: 'response',
        id: query.id,
        questions: query.questions,
        answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.9' }],
      });
      server.send(reply, from.port, from.address);
    });
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const once = new UdpClient(address, 100);
      expect(await once.ask('try.udp.test', TYPE.A)).toBe('timeout');
      once.close();
      ids.length = 0;
      const twice = new UdpClient(address, 100);
      const reply = await twice.ask('try.udp.test', TYPE.A, 2);
      twice.close();
      expect(reply !== 'timeout' && reply.answers[0]?.data).toBe('192.0.2.9');
      expect(ids).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
