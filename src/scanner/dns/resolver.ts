import { Limiter } from '../util/limit.ts';
import { normaliseName } from './names.ts';
import { type Answer, UdpClient } from './udp-client.ts';
import { RCODE_NAMES, TYPE } from './wire.ts';

export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'TXT' | 'NSEC' | 'SRV';

/**
 * Every way a lookup can end. Only `nxdomain` says the name does not exist; the failures say
 * nothing about the name and must never be read as NXDOMAIN.
 */
export type Failure = 'servfail' | 'refused' | 'timeout' | 'error';
type Outcome =
  | { status: 'ok'; records: string[]; server: string }
  | { status: 'nxdomain' | 'nodata'; server: string }
  | { status: Failure; code: string; server: string };

/**
 * The answer to an address question, with the CNAME chain the resolver followed to get it: targets
 * in order from the name asked, as the records say them (not yet checked as host names).
 */
type AddressOutcome =
  | { status: 'ok' | 'nodata' | 'nxdomain'; chain: string[]; addresses: string[]; server: string }
  | { status: Failure; code: string; chain: string[]; addresses: string[]; server: string };

interface Mx {
  exchange: string;
  priority: number;
}

interface DnsOptions {
  /** `host` or `host:port` (IPv6 as `[addr]:port`); the system's resolvers when empty. */
  servers: string[];
  timeoutMs: number;
  tries: number;
  /** Queries in flight across all resolver instances. */
  concurrency: number;
  signal?: AbortSignal;
}

const FAILURES: Record<string, Failure> = {
  SERVFAIL: 'servfail',
  REFUSED: 'refused',
};

interface Instance {
  server: string;
  client: UdpClient;
}

export interface Lookup {
  /** Skip the cache: ask again (validation). */
  fresh?: boolean;
  /** A server not to ask, where there is another (validation asks a second resolver). */
  avoid?: string;
  /**
   * Nobody asks this again in the scan (the resolve phase asks about each of its names once): an
   * answer already cached is taken, but a new one is not kept.
   */
  once?: boolean;
}

/**
 * Answers one scan keeps for questions asked again. A question comes back within a few thousand
 * others (a service's registrable domain, a nameserver's zone, a redirect's host), while a zone's
 * own names are each asked once: keeping every answer made a 10,000-name scan hold them all until
 * its end, and the garbage collector grew the heap by as much again.
 */
export const CACHED_ANSWERS = 4096;

/** The most recently used answers (asked or pending), up to `max`: the least recently used go first. */
export class RecentAnswers<T> {
  private readonly entries = new Map<string, T>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get size() {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // A Map keeps insertion order: moved to the end, the entry is the last to go.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * All lookups of one scan: our own UDP client per configured server (`node:dns` hides the CNAME
 * chain of an answer, and builds an exception for every NODATA), bounded concurrency, and a
 * per-scan cache of recent answers. `fresh` lookups skip the cache and, when there is more than
 * one server, go to a server other than the one named in `avoid` (validation asks a second resolver).
 */
export class DnsPool {
  readonly servers: string[];
  queries = 0;
  private readonly instances: Instance[];
  private readonly limiter: Limiter;
  private readonly cache = new RecentAnswers<Promise<Outcome>>(CACHED_ANSWERS);
  private readonly addressCache = new RecentAnswers<Promise<AddressOutcome>>(CACHED_ANSWERS);
  private readonly tries: number;
  private readonly signal: AbortSignal | undefined;
  private turn = 0;

  constructor(options: DnsOptions) {
    this.servers = options.servers;
    this.signal = options.signal;
    this.limiter = new Limiter(options.concurrency, options.signal);
    this.tries = Math.max(1, options.tries);
    this.instances = options.servers.map((server) => ({
      server,
      client: new UdpClient(server, options.timeoutMs),
    }));
    options.signal?.addEventListener('abort', () => this.cancel(), { once: true });
  }

  /** Stops every query in flight (they end as timeouts, and the aborted signal rejects them). */
  cancel() {
    this.close();
  }

  /** Releases the sockets; the pool answers no more questions. */
  close() {
    for (const { client } of this.instances) client.close();
  }

  private pick(avoid?: string): Instance {
    this.turn++;
    let index = this.turn % this.instances.length;
    if (avoid !== undefined && this.instances.length > 1 && this.servers[index] === avoid) {
      index = (index + 1) % this.instances.length;
    }
    return this.instances[index] as Instance;
  }

  /**
   * The A (or AAAA) records of a name and the CNAME chain that leads to them, from one recursive
   * question: the resolver's answer holds every hop it followed.
   */
  address(name: string, type: 'A' | 'AAAA', options: Lookup = {}): Promise<AddressOutcome> {
    // Normalised once: every question of a scan comes through here.
    const asked = normaliseName(name);
    return this.cached(this.addressCache, `${type} ${asked}`, options, asked, TYPE[type], readAddress);
  }

  query(name: string, type: RecordType, options: Lookup = {}): Promise<Outcome> {
    const asked = normaliseName(name);
    return this.cached(this.cache, `${type} ${asked}`, options, asked, TYPE[type], readRecords);
  }

  /**
   * The cached answer, or the question asked and its reply read by `read` (a plain function, not a
   * closure per question: what a question in flight holds is what a scan's memory grows with).
   */
  private cached<T>(
    cache: RecentAnswers<Promise<T>>,
    key: string,
    options: Lookup,
    name: string,
    type: number,
    read: (name: string, type: number, reply: Answer, server: string) => T,
  ): Promise<T> {
    if (!options.fresh) {
      const hit = cache.get(key);
      if (hit) return hit;
    }
    const instance = this.pick(options.avoid);
    const pending = this.limiter
      .run(() => this.ask(name, type, instance))
      .then((reply) => {
        this.signal?.throwIfAborted();
        return read(name, type, reply, instance.server);
      });
    if (!options.fresh && !options.once) cache.set(key, pending);
    return pending;
  }

  /**
   * One question, tried `tries` times by the client; counted once however many tries it takes.
   * Callers check the signal again once the reply is in: a cancelled scan ends its questions as
   * timeouts, which must not be read as answers.
   */
  private ask(name: string, type: number, instance: Instance): Promise<Answer> {
    this.signal?.throwIfAborted();
    this.queries++;
    return instance.client.ask(name, type, this.tries);
  }
}

/** The records of the type asked, as `node:dns` gave them. */
function readRecords(name: string, type: number, reply: Answer, server: string): Outcome {
  if (reply === 'timeout') return { status: 'timeout', code: 'ETIMEOUT', server };
  const rcode = RCODE_NAMES[reply.rcode] ?? 'OTHER';
  const failure = FAILURES[rcode];
  if (failure) return { status: failure, code: `E${rcode}`, server };
  if (rcode === 'NXDOMAIN') return { status: 'nxdomain', server };
  if (rcode !== 'NOERROR') return { status: 'error', code: `E${rcode}`, server };
  // As `node:dns` did: a CNAME question reads the name's own record, the others follow the chain.
  const records = reply.answers
    .filter((r) => r.type === type && (type !== TYPE.CNAME || r.name === name))
    .map((r) =>
      type === TYPE.CNAME || type === TYPE.NS || type === TYPE.NSEC ? normaliseName(r.data) : r.data,
    );
  return records.length > 0 ? { status: 'ok', records, server } : { status: 'nodata', server };
}

/** Walks the answer from the name asked: each CNAME hop in order, then the addresses at its end. */
function readAddress(name: string, type: number, reply: Answer, server: string): AddressOutcome {
  if (reply === 'timeout') return { status: 'timeout', code: 'ETIMEOUT', chain: [], addresses: [], server };
  const rcode = RCODE_NAMES[reply.rcode] ?? 'OTHER';
  const failure = FAILURES[rcode];
  if (failure) return { status: failure, code: `E${rcode}`, chain: [], addresses: [], server };
  if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN')
    return { status: 'error', code: `E${rcode}`, chain: [], addresses: [], server };
  const chain: string[] = [];
  let current = name;
  // Never more hops than the answer holds records: a loop in the records ends here. An answer
  // holds a few records, so each hop is looked for along them rather than through a map.
  for (let hops = 0; hops < reply.answers.length; hops++) {
    const next = reply.answers.findLast((record) => record.type === TYPE.CNAME && record.name === current);
    if (!next) break;
    current = next.data;
    chain.push(current);
  }
  const addresses: string[] = [];
  for (const record of reply.answers)
    if (record.type === type && record.name === current) addresses.push(record.data);
  if (rcode === 'NXDOMAIN') return { status: 'nxdomain', chain, addresses: [], server };
  return { status: addresses.length > 0 ? 'ok' : 'nodata', chain, addresses, server };
}

/** The target of an SRV record as `DnsPool` gives it (`priority weight port target`); `.` means no service. */
export function srvTarget(record: string): string | undefined {
  const target = record.split(' ')[3];
  return target && target !== '.' && target !== '' ? target : undefined;
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
