import { Resolver } from 'node:dns/promises';
import { Limiter } from '../util/limit.ts';
import { normaliseName } from './names.ts';

export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'TXT';

/**
 * Every way a lookup can end. Only `nxdomain` says the name does not exist; the failures say
 * nothing about the name and must never be read as NXDOMAIN.
 */
export type Failure = 'servfail' | 'refused' | 'timeout' | 'error';
export type Outcome =
  | { status: 'ok'; records: string[]; server: string }
  | { status: 'nxdomain' | 'nodata'; server: string }
  | { status: Failure; code: string; server: string };

export interface Mx {
  exchange: string;
  priority: number;
}

export interface DnsOptions {
  /** `host` or `host:port` (IPv6 as `[addr]:port`); the system's resolvers when empty. */
  servers: string[];
  timeoutMs: number;
  tries: number;
  /** Queries in flight across all resolver instances. */
  concurrency: number;
  signal?: AbortSignal;
}

/** c-ares drops UDP answers when one channel has too many queries in flight; stay well under. */
const PER_INSTANCE = 48;

const FAILURES: Record<string, Failure> = {
  ESERVFAIL: 'servfail',
  EREFUSED: 'refused',
  ETIMEOUT: 'timeout',
};

interface Instance {
  resolver: Resolver;
  server: string;
}

/**
 * All lookups of one scan: a pool of `Resolver` instances per configured server, bounded
 * concurrency, and a per-scan cache. `fresh` lookups skip the cache and, when there is more than
 * one server, go to a server other than the one named in `avoid` (validation asks a second resolver).
 */
export class DnsPool {
  readonly servers: string[];
  queries = 0;
  private readonly byServer: Instance[][];
  private readonly limiter: Limiter;
  private readonly cache = new Map<string, Promise<Outcome>>();
  private readonly signal: AbortSignal | undefined;
  private turn = 0;

  constructor(options: DnsOptions) {
    this.servers = options.servers;
    this.signal = options.signal;
    this.limiter = new Limiter(options.concurrency, options.signal);
    const perServer = Math.max(1, Math.ceil(options.concurrency / PER_INSTANCE / options.servers.length));
    this.byServer = options.servers.map((server) =>
      Array.from({ length: perServer }, () => {
        const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
        resolver.setServers([server]);
        return { resolver, server };
      }),
    );
    options.signal?.addEventListener('abort', () => this.cancel(), { once: true });
  }

  /** Stops every query in flight: they reject, and the limiter refuses new ones. */
  cancel() {
    for (const list of this.byServer) for (const instance of list) instance.resolver.cancel();
  }

  private pick(avoid?: string): Instance {
    this.turn++;
    let index = this.turn % this.byServer.length;
    if (avoid !== undefined && this.byServer.length > 1 && this.servers[index] === avoid) {
      index = (index + 1) % this.byServer.length;
    }
    const list = this.byServer[index] as Instance[];
    return list[Math.floor(this.turn / this.byServer.length) % list.length] as Instance;
  }

  query(name: string, type: RecordType, options: { fresh?: boolean; avoid?: string } = {}): Promise<Outcome> {
    const key = `${type} ${normaliseName(name)}`;
    if (!options.fresh) {
      const cached = this.cache.get(key);
      if (cached) return cached;
    }
    const pending = this.limiter.run(() => this.ask(normaliseName(name), type, this.pick(options.avoid)));
    if (!options.fresh) this.cache.set(key, pending);
    return pending;
  }

  private async ask(name: string, type: RecordType, instance: Instance): Promise<Outcome> {
    this.signal?.throwIfAborted();
    this.queries++;
    const server = instance.server;
    try {
      const records = await this.lookup(instance.resolver, name, type);
      return { status: 'ok', records, server };
    } catch (error) {
      this.signal?.throwIfAborted();
      const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      if (code === 'ENOTFOUND') return { status: 'nxdomain', server };
      if (code === 'ENODATA') return { status: 'nodata', server };
      return { status: FAILURES[code] ?? 'error', code, server };
    }
  }

  private async lookup(resolver: Resolver, name: string, type: RecordType): Promise<string[]> {
    switch (type) {
      case 'A':
        return resolver.resolve4(name);
      case 'AAAA':
        return resolver.resolve6(name);
      case 'CNAME':
        return (await resolver.resolveCname(name)).map(normaliseName);
      case 'NS':
        return (await resolver.resolveNs(name)).map(normaliseName);
      case 'MX':
        return (await resolver.resolveMx(name)).map((mx) => `${mx.priority} ${normaliseName(mx.exchange)}`);
      case 'TXT':
        return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    }
  }
}

export function parseMx(record: string): Mx {
  const [priority, exchange] = record.split(' ');
  return { priority: Number(priority), exchange: exchange ?? '' };
}

/** `host[:port]` → the form `Resolver#setServers` takes; rejects anything else. */
export function parseServer(value: string): string {
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(value);
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d+))?$/.exec(value);
  const bare6 = /^[0-9a-f:]+$/i.test(value) && value.includes(':') && !v4;
  const match = v6 ?? v4;
  if (!match && !bare6) throw new Error(`invalid resolver '${value}' (expected IP or IP:PORT)`);
  const host = bare6 ? value : (match?.[1] as string);
  const port = match?.[2] ? Number(match[2]) : 53;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`invalid resolver port in '${value}'`);
  if (port === 53) return host;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
