import { randomFillSync } from 'node:crypto';
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
  /** `performance.now()` past which this try has timed out. */
  deadline: number;
  /** Tries left, this one included: past its deadline the question is sent again while more are left. */
  tries: number;
  resolve: (answer: Answer) => void;
}

interface Channel {
  socket: dgram.Socket;
  /** Questions in flight by id, in the order asked: their deadlines only grow along the map. */
  pending: Map<number, Pending>;
  /** One timer per socket, for the oldest question in flight, rather than one per question. */
  timer: NodeJS.Timeout | undefined;
  /** Packets asked before the socket was connected, sent once it is. */
  queued: Buffer[] | undefined;
}

/**
 * Query ids drawn from the kernel's random source in batches: one call per 4,096 questions
 * instead of one per question.
 */
const ids = new Uint16Array(4096);
let nextId = ids.length;
function randomId() {
  if (nextId === ids.length) {
    randomFillSync(ids);
    nextId = 0;
  }
  return ids[nextId++] as number;
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

  /**
   * The reply, or `timeout` once `tries` tries have each waited `timeoutMs`. Each try draws a new
   * id, so a late reply to an earlier try is mostly ignored like any other stray datagram.
   */
  ask(name: string, type: number, tries = 1): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('DNS client closed'));
    return new Promise<Answer>((resolve) => this.send(name, type, Math.max(1, tries), resolve));
  }

  private send(name: string, type: number, tries: number, resolve: (answer: Answer) => void) {
    const channel = this.channel();
    let id = randomId();
    while (channel.pending.has(id)) id = (id + 1) & 0xffff;
    channel.pending.set(id, { name, type, deadline: performance.now() + this.timeoutMs, tries, resolve });
    channel.timer ??= setTimeout(() => this.expire(channel), this.timeoutMs);
    const packet = encodeQuery(id, name, type);
    if (channel.queued) channel.queued.push(packet);
    else channel.socket.send(packet);
  }

  /**
   * Ends the tries past their deadline (the oldest first), sending the question again where tries
   * are left, and waits for the next oldest. A try sent again has the latest deadline of all, so
   * deadlines still only grow along each channel's map.
   */
  private expire(channel: Channel) {
    channel.timer = undefined;
    const now = performance.now();
    for (const [id, entry] of channel.pending) {
      if (entry.deadline > now) {
        // Timers may fire a little early by this clock: never less than a millisecond.
        channel.timer = setTimeout(() => this.expire(channel), Math.max(1, Math.ceil(entry.deadline - now)));
        return;
      }
      channel.pending.delete(id);
      if (entry.tries > 1) this.send(entry.name, entry.type, entry.tries - 1, entry.resolve);
      else entry.resolve('timeout');
    }
  }

  /** A reply to a question in flight: it is no longer pending, and the last one stops the timer. */
  private settle(channel: Channel, id: number, entry: Pending, reply: WireReply) {
    channel.pending.delete(id);
    if (channel.pending.size === 0 && channel.timer) {
      clearTimeout(channel.timer);
      channel.timer = undefined;
    }
    if (reply.truncated) this.overTcp(entry.name, entry.type).then(entry.resolve);
    else entry.resolve(reply);
  }

  close() {
    this.closed = true;
    for (const { socket, pending, timer } of this.channels) {
      clearTimeout(timer);
      for (const entry of pending.values()) entry.resolve('timeout');
      pending.clear();
      socket.close();
    }
    this.channels.length = 0;
  }

  private channel(): Channel {
    // A loop, not `find` with a closure: every question passes here.
    for (const channel of this.channels) if (channel.pending.size < PER_SOCKET) return channel;
    return this.open();
  }

  private open(): Channel {
    const socket = dgram.createSocket({
      type: this.family === 6 ? 'udp6' : 'udp4',
      recvBufferSize: RECEIVE_BUFFER,
    });
    const channel: Channel = { socket, pending: new Map(), timer: undefined, queued: [] };
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
      this.settle(channel, reply.id, entry, reply);
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
      const id = randomId();
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
