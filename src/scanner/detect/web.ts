import type { ScanContext } from '../context.ts';
import { evidenceIn } from '../fingerprints/match.ts';
import type { Entry } from '../fingerprints/schema.ts';
import type { ProbeResult } from '../http/probe.ts';

/** The address a probe goes to: IPv4 first, as most services answer there. */
export function firstAddress(a: string[], aaaa: string[]) {
  return a[0] ?? aaaa[0];
}

/**
 * Probes HTTP and HTTPS of `host` at `address` and looks for the entry's evidence in responses
 * from the host itself (a redirect to another host is followed for safety checks only: its page
 * says nothing about this name).
 */
export async function webEvidence(
  ctx: ScanContext,
  host: string,
  address: string,
  entry: Entry,
  fresh = false,
): Promise<{ evidence: string[]; results: ProbeResult[] }> {
  const results = await Promise.all(
    (['http', 'https'] as const).map((scheme) => ctx.probe(host, address, scheme, entry, fresh)),
  );
  const evidence: string[] = [];
  for (const result of results) {
    for (const response of result.responses) {
      if (response.host !== host) continue;
      const found = evidenceIn(entry, response);
      if (found) {
        evidence.push(found);
        break;
      }
    }
    if (result.error?.kind === 'blocked') ctx.error('detect', result.error.message, host);
  }
  return { evidence, results };
}
