import type { ScanContext } from '../context.ts';
import { evidenceIn } from '../fingerprints/match.ts';
import type { Entry } from '../fingerprints/schema.ts';
import { type Scheme, unfinished } from '../http/probe.ts';

/** The address a probe goes to: IPv4 first, as most services answer there. */
export function firstAddress(a: string[], aaaa: string[]) {
  return a[0] ?? aaaa[0];
}

/**
 * Probes HTTP and HTTPS of `host` at `address` and looks for the entry's evidence in responses
 * from the host itself (a redirect to another host is followed for safety checks only: its page
 * says nothing about this name). The two schemes must not contradict each other: when one serves
 * a working page (2xx) without the evidence, the resource is in use and nothing is reported. HTTP
 * goes first, so a live resource that says so there costs no HTTPS probe (a TLS handshake); a
 * `fresh` look (validation, of a name that showed the evidence) reads both at once. `ownTarget`: the
 * record points at the service's own suffix or address (its generic sentences count only then).
 */
export async function webEvidence(
  ctx: ScanContext,
  host: string,
  address: string,
  entry: Entry,
  fresh = false,
  ownTarget = true,
): Promise<string[]> {
  const probe = (scheme: Scheme) => ctx.probe(host, address, scheme, entry, fresh);
  const early = fresh ? probe('https') : undefined;
  // A cancelled scan rejects it; the rejection is seen where it is awaited, if it still is.
  early?.catch(() => {});
  const evidence: string[] = [];
  // A probe that stopped on a fault or a limit is the name's error, unless the other scheme settled it.
  const stopped: string[] = [];
  for (const scheme of ['http', 'https'] as const) {
    const result = await (scheme === 'https' ? (early ?? probe('https')) : probe('http'));
    if (result.error?.kind === 'blocked') ctx.error('detect', result.error.message, host);
    const stop = unfinished(result);
    if (stop) stopped.push(stop);
    const own = result.responses.filter((response) => response.host === host);
    const found = own.map((response) => evidenceIn(entry, response, ownTarget)).find(Boolean);
    if (found) evidence.push(found);
    else if (own.some((response) => response.status >= 200 && response.status < 300)) {
      // A working page cut off at a limit says the resource is in use, yet was not read whole.
      if (stop) ctx.error('detect', stop, host);
      return [];
    }
  }
  if (evidence.length === 0) for (const stop of stopped) ctx.error('detect', stop, host);
  return evidence;
}
