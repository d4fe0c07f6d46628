import { isHostName } from './names.ts';
import type { DnsPool, Failure } from './resolver.ts';

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

type Lookup = { fresh?: boolean; avoid?: string };

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
  const chain: string[] = [];
  const seen = new Set([name]);
  let current = name;
  const done = (
    status: Resolution['status'],
    outcome: { server: string; code?: string },
    extra: Partial<Resolution> = {},
  ): Resolution => ({
    name,
    chain,
    terminal: current,
    status,
    a: [],
    aaaa: [],
    server: outcome.server,
    ...(outcome.code ? { code: outcome.code } : {}),
    ...(given ? { given } : {}),
    ...extra,
  });
  if (given && !given.cname) {
    // The zone holds the name, with its addresses or with none (TXT or MX only): nothing to ask.
    return done('exists', { server: ZONE }, { a: [...(given.a ?? [])], aaaa: [...(given.aaaa ?? [])] });
  }
  /** Takes the hops of an answer; a finished resolution when one of them ends the walk. */
  const follow = (hops: readonly string[], outcome: { server: string }): Resolution | undefined => {
    for (const target of hops) {
      if (!isHostName(target)) return done('invalid', outcome, { code: JSON.stringify(target.slice(0, 80)) });
      chain.push(target);
      if (seen.has(target)) return done('loop', outcome);
      if (chain.length > MAX_CHAIN) return done('too-deep', outcome);
      seen.add(target);
      current = target;
    }
    return undefined;
  };
  if (given?.cname) {
    const ended = follow([given.cname], { server: ZONE });
    if (ended) return ended;
  }
  const a = await dns.address(current, 'A', lookup);
  const ended = follow(a.chain, a);
  if (ended) return ended;
  if (a.status === 'nxdomain') return done('nxdomain', a);
  if (a.status !== 'ok' && a.status !== 'nodata') return done(a.status, a);
  if (a.status === 'ok') return done('exists', a, { a: a.addresses });
  const aaaa = await dns.address(current, 'AAAA', lookup);
  // The A answer just said the name exists; a failure now leaves it existing without addresses.
  return done('exists', a, { aaaa: aaaa.status === 'ok' ? aaaa.addresses : [] });
}
