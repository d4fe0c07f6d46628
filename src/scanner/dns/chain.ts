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
  /** Which resolver gave the decisive answer. */
  server: string;
}

type Lookup = { fresh?: boolean; avoid?: string };

/**
 * Follows CNAMEs one hop at a time (`resolveCname` returns one hop only), so the chain, a loop
 * and the exact point where it ends are all known.
 */
export async function resolveChain(dns: DnsPool, name: string, lookup: Lookup = {}): Promise<Resolution> {
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
    ...extra,
  });
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
