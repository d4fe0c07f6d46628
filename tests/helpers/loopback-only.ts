// Every unit test runs with this: a TCP connection or UDP datagram to anything but loopback fails
// the test that made it. A scan or client whose default reaches the internet (a public resolver,
// RDAP, a provider's API) would otherwise pass here by timing out quietly, and reach out for real
// on a machine that has a network.
import dgram from 'node:dgram';
import net from 'node:net';
import { afterEach } from 'vitest';

/**
 * Shared by every file a worker runs: files that share a module graph run this setup each, and the
 * sockets are wrapped only by the first.
 */
const GUARD = Symbol.for('danglewatch.tests.loopback-only');
const state = globalThis as typeof globalThis & { [GUARD]?: string[] };
const installed = state[GUARD] !== undefined;
state[GUARD] ??= [];
const attempts = state[GUARD];

function isLoopback(host: string | undefined): boolean {
  if (host === undefined || host === '' || host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 4) return bare.startsWith('127.');
  if (family === 6) return bare === '::1' || /^::ffff:127\./i.test(bare);
  return false;
}

function refuse(where: string): Error {
  attempts.push(where);
  return new Error(`tests never reach beyond loopback: ${where}`);
}

if (!installed) guardSockets();

function guardSockets() {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guarded(this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as
      | { host?: string; port?: number; path?: string; lookup?: unknown }
      | number
      | string;
    // A unix socket path, or a port alone (localhost), stays on this machine.
    if (typeof options === 'string' || (typeof options === 'object' && options !== null && options.path))
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    const host =
      typeof options === 'object' && options !== null
        ? options.host
        : typeof args[1] === 'string'
          ? args[1]
          : undefined;
    const port = typeof options === 'object' && options !== null ? options.port : options;
    const ownLookup = typeof options === 'object' && options !== null && typeof options.lookup === 'function';
    if (host && net.isIP(host.replace(/^\[|\]$/g, '')) === 0 && host !== 'localhost' && ownLookup) {
      // A name the caller resolves itself (the scanner through its own resolvers): judged by the
      // address it resolves to.
      this.once('lookup', (error: Error | null, address: string) => {
        if (!error && !isLoopback(address)) refuse(`TCP ${host} (${address}):${String(port)}`);
      });
    } else if (!isLoopback(host)) {
      // Any other name would be resolved by the system's resolver: beyond loopback already.
      const error = refuse(`TCP ${host}:${String(port)}`);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guarded(this: dgram.Socket, ...args: unknown[]) {
    // send(msg, [offset, length,] port, address, callback): the address is the first string after the message.
    const address = args.slice(1).find((a): a is string => typeof a === 'string');
    if (!isLoopback(address)) {
      const error = refuse(`UDP ${address}`);
      const callback = args.findLast((a): a is (e: Error) => void => typeof a === 'function');
      if (callback) process.nextTick(() => callback(error));
      return;
    }
    return (send as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.send;

  const dgramConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function guarded(this: dgram.Socket, ...args: unknown[]) {
    const address = typeof args[1] === 'string' ? args[1] : undefined;
    if (!isLoopback(address)) throw refuse(`UDP ${address}:${String(args[0])}`);
    return (dgramConnect as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.connect;
}

afterEach(() => {
  if (attempts.length === 0) return;
  const seen = [...new Set(attempts.splice(0))];
  throw new Error(`this test tried to reach beyond loopback: ${seen.join(', ')}`);
});
