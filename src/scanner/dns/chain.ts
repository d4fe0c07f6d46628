import { isHostName } from './names.ts';
import type { DnsPool, Failure, Lookup } from './resolver.ts';

/** Deep enough for any sane CDN chain; a deeper one is reported rather than followed. */
export const MAX_CHAIN = 10;

export interface Resolution {
  name: string;
  /** CNAME targets in the order they were followed. */
  chain: string[];
  /** The last name of the chain (the name itself when it has no CNAME). */
  terminal: string;
  /**
   * `exists`: the terminal name exists (with or without addresses); `nxdomain`: it does not;
   * `invalid`: a CNAME points at something that is not a host name (never followed).
   */
  status: 'exists' | 'nxdomain' | Failure | 'loop' | 'too-deep' | 'invalid';
  /** The resolver error code when `status` is a failure. */
  code?: string;
  a: string[];
  aaaa: string[];
  /** Which resolver gave the decisive answer (`ZONE` when the zone's own records did). */
  server: string;
  /** What the zone's records said of the name, where the walk started from them. */
  given?: Given;
}

/** The `server` of an answer that came from the zone's own records, not from a resolver. */
export const ZONE = "the zone's records";

/**
 * What the scanned zone's records already say about a name: its CNAME (or alias) target, or its
 * addresses. The walk starts from there instead of asking DNS what the zone already answered.
 */
export interface Given {
  cname?: string;
  /** The target is a provider's alias (Route 53 ALIAS): flattened to addresses, so DNS never shows it. */
  alias?: boolean;
  a?: readonly string[];
  aaaa?: readonly string[];
}

/** Where an answer came from, for evidence: `resolver 1.1.1.1` or the zone's records. */
export function answeredBy(res: Pick<Resolution, 'server'>) {
  return res.server === ZONE ? ZONE : `resolver ${res.server}`;
}

/**
 * Resolves a name with one recursive question for its addresses: the answer carries every CNAME
 * hop the resolver followed, so the chain, a loop and the exact point where it ends are all known
 * without asking hop by hop. AAAA is asked only where A has no address (the name exists, but
 * perhaps on IPv6 only). `given` starts the walk from what the zone's own records say.
 */
export async function resolveChain(
  dns: DnsPool,
  name: string,
  lookup: Lookup = {},
  given?: Given,
): Promise<Resolution> {
  if (given && !given.cname) {
    // The zone holds the name, with its addresses or with none (TXT or MX only): nothing to ask.
    return resolution(name, [], 'exists', ZONE, given, [...(given.a ?? [])], [...(given.aaaa ?? [])]);
  }
  const chain: string[] = [];
  if (given?.cname) {
    const ended = follow(name, chain, [given.cname], ZONE, given);
    if (ended) return ended;
  }
  const asked = chain.at(-1) ?? name;
  const a = await dns.address(asked, 'A', lookup);
  const ended = follow(name, chain, a.chain, a.server, given);
  if (ended) return ended;
  if (a.status === 'nxdomain') return resolution(name, chain, 'nxdomain', a.server, given);
  if (a.status !== 'ok' && a.status !== 'nodata')
    return resolution(name, chain, a.status, a.server, given, [], [], 'code' in a ? a.code : undefined);
  if (a.status === 'ok') return resolution(name, chain, 'exists', a.server, given, a.addresses);
  const aaaa = await dns.address(chain.at(-1) ?? name, 'AAAA', lookup);
  // The A answer just said the name exists; a failure now leaves it existing without addresses.
  return resolution(name, chain, 'exists', a.server, given, [], aaaa.status === 'ok' ? aaaa.addresses : []);
}

/**
 * Takes the hops of an answer onto `chain`; a finished resolution when one of them ends the walk.
 * A chain is at most `MAX_CHAIN` long, so a loop is found by looking along it.
 */
function follow(
  name: string,
  chain: string[],
  hops: readonly string[],
  server: string,
  given: Given | undefined,
): Resolution | undefined {
  for (const target of hops) {
    if (!isHostName(target))
      return resolution(name, chain, 'invalid', server, given, [], [], JSON.stringify(target.slice(0, 80)));
    const looped = target === name || chain.includes(target);
    chain.push(target);
    if (looped) return resolution(name, chain, 'loop', server, given);
    if (chain.length > MAX_CHAIN) return resolution(name, chain, 'too-deep', server, given);
  }
  return undefined;
}

function resolution(
  name: string,
  chain: string[],
  status: Resolution['status'],
  server: string,
  given: Given | undefined,
  a: string[] = [],
  aaaa: string[] = [],
  code?: string,
): Resolution {
  const res: Resolution = { name, chain, terminal: name, status, a, aaaa, server };
  // The terminal is the last name reached: a hop that loops or goes too deep is on the chain, not reached.
  const reached = status === 'loop' || status === 'too-deep' ? chain.length - 1 : chain.length;
  if (reached > 0) res.terminal = chain[reached - 1] as string;
  if (code) res.code = code;
  if (given) res.given = given;
  return res;
}
