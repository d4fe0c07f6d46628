import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { decodeReply, encodeQuery, type WireReply } from './wire.ts';

/** Questions in flight per socket: ids are 16 bits, and a socket's buffer holds only so many replies. */
const PER_SOCKET = 256;
/** Replies of a burst wait in the kernel until the event loop reads them; a small buffer drops them. */
const RECEIVE_BUFFER = 4 * 2 ** 20;

export type Answer = WireReply | 'timeout';

interface Pending {
  name: string;
  type: number;
  done: (answer: WireReply | undefined) => void;
  timer: NodeJS.Timeout;
}

interface Channel {
  socket: dgram.Socket;
  pending: Map<number, Pending>;
  /** Packets asked before the socket was connected, sent once it is. */
  queued: Buffer[] | undefined;
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address (the forms `parseServer` gives). */
function splitServer(server: string): { host: string; port: number } {
  const bracketed = /^\[(.+)\]:(\d+)$/.exec(server);
  if (bracketed) return { host: bracketed[1] as string, port: Number(bracketed[2]) };
  if (net.isIPv6(server.replace(/%.*$/, ''))) return { host: server, port: 53 };
  const [host, port] = server.split(':');
  return { host: host as string, port: port ? Number(port) : 53 };
}

/**
 * Address questions to one recursive resolver over UDP, many in flight on a few sockets, read with
 * our own decoder: one answer to A carries the whole CNAME chain, which `node:dns` keeps to itself.
 * A reply counts only from the server's address and port, with the id and the question asked (the
 * defence c-ares has against spoofed answers); each socket has its own random source port from
 * the kernel. A truncated reply is asked again over TCP.
 */
export class UdpClient {
  private readonly host: string;
  private readonly port: number;
  private readonly family: 4 | 6;
  private readonly channels: Channel[] = [];
  private readonly timeoutMs: number;
  private closed = false;

  constructor(server: string, timeoutMs: number) {
    const { host, port } = splitServer(server);
    this.host = host;
    this.port = port;
    this.family = net.isIPv6(host.replace(/%.*$/, '')) ? 6 : 4;
    this.timeoutMs = timeoutMs;
  }

  /** One try: the reply, or `timeout` after `timeoutMs`. */
  ask(name: string, type: number): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('DNS client closed'));
    const channel = this.channel();
    let id = randomInt(0, 0x10000);
    while (channel.pending.has(id)) id = (id + 1) & 0xffff;
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        channel.pending.delete(id);
        resolve('timeout');
      }, this.timeoutMs);
      channel.pending.set(id, {
        name,
        type,
        timer,
        done: (reply) => {
          clearTimeout(timer);
          channel.pending.delete(id);
          if (!reply) resolve('timeout');
          else if (reply.truncated) this.overTcp(name, type).then(resolve);
          else resolve(reply);
        },
      });
      const packet = encodeQuery(id, name, type);
      if (channel.queued) channel.queued.push(packet);
      else channel.socket.send(packet);
    });
  }

  close() {
    this.closed = true;
    for (const { socket, pending } of this.channels) {
      for (const entry of pending.values()) entry.done(undefined);
      socket.close();
    }
    this.channels.length = 0;
  }

  private channel(): Channel {
    return this.channels.find((c) => c.pending.size < PER_SOCKET) ?? this.open();
  }

  private open(): Channel {
    const socket = dgram.createSocket({
      type: this.family === 6 ? 'udp6' : 'udp4',
      recvBufferSize: RECEIVE_BUFFER,
    });
    const channel: Channel = { socket, pending: new Map(), queued: [] };
    // Connected: no address lookup per packet, and the kernel drops datagrams from anyone else.
    socket.connect(this.port, this.host, () => {
      const queued = channel.queued ?? [];
      channel.queued = undefined;
      for (const packet of queued) socket.send(packet);
    });
    socket.on('message', (msg, from) => {
      if (from.port !== this.port || !sameHost(from.address, this.host)) return;
      const reply = decodeReply(msg);
      if (!reply) return;
      const entry = channel.pending.get(reply.id);
      if (!entry || !reply.question) return;
      if (reply.question.name !== entry.name || reply.question.type !== entry.type) return;
      entry.done(reply);
    });
    // A send error (the port unreachable) leaves the question to its timeout, as a lost packet would.
    socket.on('error', () => {});
    // Sockets never keep the process alive; a question in flight does, through its timer.
    socket.unref();
    this.channels.push(channel);
    return channel;
  }

  /** The same question over TCP, for a reply too large for UDP. */
  private overTcp(name: string, type: number): Promise<Answer> {
    return new Promise((resolve) => {
      const id = randomInt(0, 0x10000);
      const query = encodeQuery(id, name, type);
      const head = Buffer.alloc(2);
      head.writeUInt16BE(query.length);
      const socket = net.connect({ host: this.host.replace(/%.*$/, ''), port: this.port });
      let buffered = Buffer.alloc(0);
      const finish = (answer: Answer) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      };
      const timer = setTimeout(() => finish('timeout'), this.timeoutMs);
      socket.on('connect', () => socket.write(Buffer.concat([head, query])));
      socket.on('data', (chunk) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
        const reply = decodeReply(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
        const matches = reply?.id === id && reply.question?.name === name && reply.question.type === type;
        finish(matches && reply ? reply : 'timeout');
      });
      socket.on('error', () => finish('timeout'));
    });
  }
}

/** IPv4-mapped forms aside, the address a reply came from is the server's. */
function sameHost(address: string, host: string) {
  return address === host || address === `::ffff:${host}` || address === host.replace(/%.*$/, '');
}
