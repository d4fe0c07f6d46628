import type { Candidate, ScanContext } from '../context.ts';
import { resolveChain } from '../dns/chain.ts';
import { isHostName } from '../dns/names.ts';
import { danglingSrvTexts } from '../report/texts.ts';
import { unregisteredCandidate } from './unregistered.ts';

/** `_service._proto.name`: the owner names SRV records live at (RFC 2782). */
export function isServiceName(name: string) {
  // A test, not a split: every name that exists comes through here.
  return /^_[^.]+\._(tcp|udp|tls|sctp)\./.test(name);
}

/**
 * An SRV record's targets: one inside a domain nobody registered is claimable (whoever registers it
 * receives the service's clients); one that does not exist is stale, for review, like a gone MX host.
 */
export async function detectSrv(ctx: ScanContext, name: string, targets: readonly string[]) {
  const candidates: Candidate[] = [];
  for (const target of new Set(targets)) {
    if (!isHostName(target)) continue;
    const evidence = [`${name} SRV ${target}`];
    ctx.notePointer(name, 'SRV', target);
    const registrable = await ctx.unregistered(target);
    if (registrable) {
      candidates.push(
        unregisteredCandidate(ctx, { subdomain: name, recordType: 'SRV', target, registrable, evidence }),
      );
      continue;
    }
    const res = await resolveChain(ctx.dns, target);
    if (res.status !== 'nxdomain') continue;
    candidates.push({
      kind: 'mail',
      finding: {
        subdomain: name,
        recordType: 'SRV',
        target,
        service: 'service record',
        status: 'review',
        risk: 'low',
        evidence: [...evidence, `${res.terminal}: NXDOMAIN (resolver ${res.server})`],
        ...danglingSrvTexts(name, target),
      },
      recheck: async () => {
        const fresh = await resolveChain(ctx.dns, target, { fresh: true, avoid: res.server });
        return fresh.status === 'nxdomain' ? `confirmed NXDOMAIN via resolver ${fresh.server}` : undefined;
      },
    });
  }
  return candidates;
}
