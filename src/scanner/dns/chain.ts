import { isHostName } from './names.ts';
import type { DnsPool, Failure, Outcome } from './resolver.ts';

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
 * Follows CNAMEs one hop at a time (`resolveCname` returns one hop only), so the chain, a loop
 * and the exact point where it ends are all known.
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
    outcome: Outcome,
    extra: Partial<Resolution> = {},
  ): Resolution => ({
    name,
    chain,
    terminal: current,
    status,
    a: [],
    aaaa: [],
    server: outcome.server,
    ...('code' in outcome ? { code: outcome.code } : {}),
    ...(given ? { given } : {}),
    ...extra,
  });
  if (given && !given.cname) {
    // The zone holds the name, with its addresses or with none (TXT or MX only): nothing to ask.
    return done(
      'exists',
      { status: 'nodata', server: ZONE },
      { a: [...(given.a ?? [])], aaaa: [...(given.aaaa ?? [])] },
    );
  }
  if (given?.cname) {
    const zoneHop: Outcome = { status: 'ok', records: [given.cname], server: ZONE };
    chain.push(given.cname);
    if (seen.has(given.cname)) return done('loop', zoneHop);
    seen.add(given.cname);
    current = given.cname;
  }
  for (;;) {
    const outcome = await dns.query(current, 'CNAME', lookup);
    if (outcome.status === 'ok') {
      const target = outcome.records[0] as string;
      if (!isHostName(target)) return done('invalid', outcome, { code: JSON.stringify(target.slice(0, 80)) });
      chain.push(target);
      if (seen.has(target)) return done('loop', outcome);
      if (chain.length > MAX_CHAIN) return done('too-deep', outcome);
      seen.add(target);
      current = target;
      continue;
    }
    if (outcome.status === 'nxdomain') return done('nxdomain', outcome);
    if (outcome.status !== 'nodata') return done(outcome.status, outcome);
    break;
  }
  const [a, aaaa] = await Promise.all([dns.query(current, 'A', lookup), dns.query(current, 'AAAA', lookup)]);
  for (const outcome of [a, aaaa]) {
    if (outcome.status === 'ok' || outcome.status === 'nodata') continue;
    // The CNAME query just said the name exists; a contrary answer now is a resolver problem.
    if (outcome.status === 'nxdomain')
      return done('error', { ...outcome, status: 'error', code: 'INCONSISTENT' });
    if (a.status !== 'ok' && aaaa.status !== 'ok') return done(outcome.status, outcome);
  }
  return done('exists', a, {
    a: a.status === 'ok' ? a.records : [],
    aaaa: aaaa.status === 'ok' ? aaaa.records : [],
  });
}
