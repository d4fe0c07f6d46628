import type { Candidate, ScanContext } from '../context.ts';
import type { Resolution } from '../dns/chain.ts';
import { wildcardTexts } from '../report/texts.ts';
import { detectName } from './records.ts';
import { unregisteredCandidate } from './unregistered.ts';

/**
 * A wildcard record (`*.example.com`) that dangles: every name under it without records of its own
 * can be taken at once. The rules run on one name nobody created (`probe`), and the finding is
 * reported once, at the wildcard, instead of once per name that happens to be known.
 */
export async function detectWildcard(
  ctx: ScanContext,
  parent: string,
  probe: Resolution,
): Promise<Candidate[]> {
  const owner = `*.${parent}`;
  const found = await detectName(ctx, probe);
  // Registration decides: a wildcard CNAME into a domain nobody holds, whether or not it resolves.
  if (found.length === 0 && probe.status === 'exists' && probe.chain.length > 0) {
    const target = probe.terminal;
    const registrable = await ctx.unregistered(target);
    if (registrable)
      found.push(
        unregisteredCandidate(ctx, {
          subdomain: probe.name,
          recordType: 'CNAME',
          target,
          registrable,
          evidence: [`${probe.name} CNAME ${probe.chain.join(' → ')}`],
        }),
      );
  }
  return found.map((candidate) => ({
    ...candidate,
    finding: {
      ...candidate.finding,
      subdomain: owner,
      evidence: [
        `${owner}: every name under ${parent} without records of its own answers as ${probe.name} (a name nobody created) does`,
        ...candidate.finding.evidence,
      ],
      explanation: `${wildcardTexts(parent).lead} ${candidate.finding.explanation}`,
      remediation: `${wildcardTexts(parent).fix} ${candidate.finding.remediation}`,
    },
  }));
}
