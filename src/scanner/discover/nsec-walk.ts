import type { ScanContext } from '../context.ts';
import { inZone } from '../dns/names.ts';

/**
 * Walks a zone signed with NSEC: each name's NSEC record names the next name of the zone, so
 * following them from the apex lists every name, round to the apex again. A zone signed with NSEC3
 * (hashed names) or not signed answers no NSEC, and the walk ends at once. One question per name,
 * in sequence; `max` bounds it, and a chain that leaves the zone or loops stops it.
 */
export async function* walkNsec(ctx: ScanContext, max: number): AsyncGenerator<string> {
  const apex = ctx.settings.domain;
  const seen = new Set<string>([apex]);
  let current = apex;
  while (seen.size <= max) {
    const nsec = await ctx.dns.query(current, 'NSEC');
    const next = nsec.status === 'ok' ? nsec.records[0] : undefined;
    if (!next || !inZone(next, apex) || seen.has(next)) return;
    seen.add(next);
    yield next;
    current = next;
  }
}
