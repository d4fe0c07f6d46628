import type { FindingView } from '../../model/contract.ts';
import { grade, lapse } from '../detect/expiring.ts';
import { registrableDomain } from '../discover/rdap.ts';
import { openContext } from '../scan.ts';
import type { ScanOptions } from '../types.ts';
import { prove } from './prove.ts';
import { rdapProof } from './rdap.ts';
import { proofSettings } from './settings.ts';

/**
 * A claimable finding asked about again, as the scan asked (same resolvers, same pinned probes,
 * the provider's API): for an alert that would call it claimable on a proof older than a day. What
 * the provider no longer says makes it likely, or review when it now says the name is taken.
 */
export async function reproveFinding(
  finding: FindingView,
  options: Omit<ScanOptions, 'signal'>,
  signal: AbortSignal = AbortSignal.timeout(60_000),
): Promise<FindingView> {
  const domain = registrableDomain(finding.subdomain) ?? finding.subdomain;
  const { ctx, dns } = openContext(domain, options, signal);
  try {
    const { proof, ...rest } = finding;
    if (proof?.check === 'rdap' || proof?.check === 'rdap-lapse') {
      const registrable = proof.answer.name;
      if (await ctx.unregistered(finding.target, true))
        return {
          ...rest,
          status: 'claimable',
          proof: rdapProof(registrable, '404: not registered, and no delegation in DNS'),
        };
      const lapsing = lapse(await ctx.rdap?.details(registrable, true), Date.now());
      if (lapsing && grade(lapsing).status === 'claimable')
        return { ...rest, status: 'claimable', proof: rdapProof(registrable, proof.answer.said, true) };
      return {
        ...rest,
        status: 'likely',
        evidence: [...rest.evidence, `not proven: RDAP no longer says ${registrable} is free`],
        proof: null,
      };
    }
    const [again] = await prove([{ ...rest, status: 'claimable' }], ctx, {
      settings: options.proof ?? proofSettings(),
      validated: true,
      signal,
    });
    return again ?? { ...rest, status: 'likely', proof: null };
  } finally {
    dns.close();
  }
}
