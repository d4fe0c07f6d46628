// Wraps TCP connections and UDP datagrams so that any to an address beyond loopback (127.0.0.0/8,
// ::1) is refused and reported: the unit tests (loopback-only.ts) and the e2e server
// (e2e-server.ts) run with it. A name the caller resolves itself (the scanner through its own
// resolvers) is judged by the address it resolves to; any other name would go to the system's
// resolver, and is refused before it does.
import dgram from 'node:dgram';
import net from 'node:net';

function isLoopback(host: string | undefined): boolean {
  if (host === undefined || host === '' || host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 4) return bare.startsWith('127.');
  if (family === 6) return bare === '::1' || /^::ffff:127\./i.test(bare);
  return false;
}

export function guardSockets(refused: (where: string) => void) {
  const refuse = (where: string) => {
    refused(where);
    return new Error(`tests never reach beyond loopback: ${where}`);
  };
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
