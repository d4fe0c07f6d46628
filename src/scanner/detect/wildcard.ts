import type { Candidate, ScanContext } from '../context.ts';
import type { Resolution } from '../dns/chain.ts';
import { wildcardTexts } from '../report/texts.ts';
import { registrationCandidate } from './expiring.ts';
import { detectName } from './records.ts';

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
  let found = await detectName(ctx, probe);
  // Registration decides, as for any record: a wildcard CNAME into a domain nobody holds, or one
  // lapsing, whether or not its target still resolves.
  const target = probe.chain.length > 0 ? probe.terminal : undefined;
  const registrable = target ? ctx.foreignRegistrable(target) : undefined;
  if (target && registrable && !found.some((c) => c.kind === 'unregistered-domain')) {
    const pointer = { subdomain: probe.name, recordType: 'CNAME' as const, target };
    const registration = await registrationCandidate(ctx, registrable, pointer);
    if (registration) found = [...found.filter((c) => c.kind !== 'dangling-cname'), registration];
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
