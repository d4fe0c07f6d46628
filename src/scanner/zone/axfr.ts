import { randomInt } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import net, { isIP } from 'node:net';
import type { DecodedPacket } from 'dns-packet';
import dnsPacket from 'dns-packet';
import { type AllowPrivate, refusal } from '../../connectors/http/address-guard.ts';
import { hostName, wireToZoneRecord } from './presentation.ts';
import type { ZoneRecord } from './record.ts';

/** A zone transfer that did not complete: the message names the server and says what it did. */
export class ZoneTransferError extends Error {
  override name = 'ZoneTransferError';
  /** The server said no (a refusal rcode, or no TCP service): the ordinary answer, not a fault. */
  readonly refused: boolean;
  constructor(message: string, refused = false) {
    super(message);
    this.refused = refused;
  }
}

interface AxfrServer {
  host: string;
  port: number;
}

interface AxfrOptions {
  zone: string;
  server: AxfrServer;
  /** Longest wait for the connection and for each next message, in ms. */
  timeoutMs?: number;
  /** A hostile server could stream forever; the transfer stops with an error past this many. */
  maxRecords?: number;
  allowPrivate?: AllowPrivate;
  signal?: AbortSignal;
}

const AXFR_DEFAULTS = { port: 53, timeoutMs: 10_000, maxRecords: 2_000_000 } as const;

/** `HOST`, `HOST:PORT`, `[IPv6]:PORT` or a bare IPv6 address; the port defaults to 53. */
export function parseAxfrServer(value: string): AxfrServer {
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(value);
  const plain = /^([a-z0-9_.-]+)(?::(\d+))?$/i.exec(value);
  const bare6 = isIP(value) === 6 ? value : undefined;
  const host = bare6 ?? bracketed?.[1] ?? plain?.[1];
  const port = Number(bare6 ? AXFR_DEFAULTS.port : ((bracketed ?? plain)?.[2] ?? AXFR_DEFAULTS.port));
  if (!host) throw new Error(`invalid zone transfer server '${value}' (expected HOST or HOST:PORT)`);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`invalid port in zone transfer server '${value}'`);
  return { host, port };
}

function label({ host, port }: AxfrServer) {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

async function connect(server: AxfrServer, options: AxfrOptions, timeoutMs: number) {
  const where = label(server);
  let address = server.host;
  if (isIP(address) === 0) {
    try {
      address = (await lookup(server.host)).address;
    } catch (error) {
      throw new ZoneTransferError(
        `cannot resolve zone transfer server ${where}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
  }
  const refused = refusal(address, options.allowPrivate ?? false);
  if (refused)
    throw new ZoneTransferError(`zone transfer server ${where} (${address}) is refused: ${refused}`);
  const socket = net.connect({ host: address, port: server.port, signal: options.signal });
  const timer = setTimeout(
    () =>
      socket.destroy(
        new ZoneTransferError(
          `zone transfer server ${where} did not accept a connection within ${timeoutMs} ms`,
        ),
      ),
    timeoutMs,
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof ZoneTransferError || error.name === 'AbortError'
          ? error
          : new ZoneTransferError(
              `cannot connect to zone transfer server ${where}: ${error.code ?? error.message}`,
              error.code === 'ECONNREFUSED',
            ),
      ),
    );
  }).finally(() => clearTimeout(timer));
  return socket;
}

/**
 * The DNS messages of a TCP stream, each framed by its two-byte length (RFC 1035 §4.2.2). The
 * timeout runs only while waiting for the server, never while the consumer takes its time.
 */
async function* framedMessages(socket: net.Socket, timeoutMs: number, where: string): AsyncGenerator<Buffer> {
  const chunks = (socket as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ZoneTransferError(`zone transfer server ${where} sent nothing for ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    const next = await Promise.race([chunks.next(), silence])
      .catch((error: NodeJS.ErrnoException) => {
        // A reset or any other socket fault is the transfer's failure, named, never a crash.
        if (error instanceof ZoneTransferError || error.name === 'AbortError') throw error;
        throw new ZoneTransferError(
          `zone transfer server ${where} broke the connection: ${error.code ?? error.message}`,
        );
      })
      .finally(() => clearTimeout(timer));
    if (next.done) return;
    const chunk = next.value;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 2) {
      const length = pending.readUInt16BE(0);
      if (pending.length < 2 + length) break;
      yield pending.subarray(2, 2 + length);
      pending = pending.subarray(2 + length);
    }
  }
}

/**
 * A full zone transfer (AXFR, RFC 5936) over TCP: the records stream out message by message, from
 * the opening SOA to the closing one, so a large zone is never held whole. A refusal (REFUSED,
 * NOTAUTH…), a timeout, or a connection closed before the closing SOA is a `ZoneTransferError`
 * naming the server. Records whose owner lies outside the zone are skipped: a server may add
 * glue, and nothing outside the zone is the user's to scan.
 */
export async function* readAxfr(options: AxfrOptions): AsyncGenerator<ZoneRecord> {
  const zone = hostName(options.zone);
  const where = label(options.server);
  const timeoutMs = options.timeoutMs ?? AXFR_DEFAULTS.timeoutMs;
  const maxRecords = options.maxRecords ?? AXFR_DEFAULTS.maxRecords;
  const socket = await connect(options.server, options, timeoutMs);
  try {
    const id = randomInt(0, 65536);
    socket.write(dnsPacket.streamEncode({ type: 'query', id, questions: [{ type: 'AXFR', name: zone }] }));
    let count = 0;
    let opened = false;
    for await (const message of framedMessages(socket, timeoutMs, where)) {
      let packet: DecodedPacket & { rcode?: string };
      try {
        packet = dnsPacket.decode(message);
      } catch (error) {
        throw new ZoneTransferError(
          `zone transfer server ${where} sent a malformed message: ${(error as Error).message}`,
        );
      }
      if (packet.id !== id || packet.type !== 'response') continue;
      if (packet.rcode !== 'NOERROR')
        throw new ZoneTransferError(
          `zone transfer server ${where} refused the transfer of ${zone}: ${packet.rcode}`,
          true,
        );
      for (const answer of packet.answers ?? []) {
        let record: ZoneRecord;
        try {
          record = wireToZoneRecord(answer);
        } catch (error) {
          throw new ZoneTransferError(
            `zone transfer server ${where} sent a record that cannot be read: ${(error as Error).message}`,
          );
        }
        const isSoa = record.type === 'SOA' && record.name === zone;
        if (!opened) {
          if (!isSoa)
            throw new ZoneTransferError(
              `zone transfer server ${where} did not start the transfer of ${zone} with its SOA`,
            );
          opened = true;
        } else if (isSoa) {
          return;
        }
        if (++count > maxRecords)
          throw new ZoneTransferError(`zone transfer from ${where} exceeded ${maxRecords} records`);
        if (record.name === zone || record.name.endsWith(`.${zone}`)) yield record;
      }
      if (!opened)
        throw new ZoneTransferError(`zone transfer server ${where} answered with no records for ${zone}`);
    }
    throw new ZoneTransferError(
      `zone transfer server ${where} closed the connection before the end of ${zone} (${count} records read)`,
    );
  } finally {
    socket.destroy();
  }
}
