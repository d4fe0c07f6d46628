import type { Candidate, ScanContext } from '../context.ts';
import { rdapProof } from '../proof/rdap.ts';
import { spfTexts, unregisteredTexts } from '../report/texts.ts';
import type { RecordKind } from '../types.ts';

interface UnregisteredTarget {
  subdomain: string;
  recordType: Extract<RecordKind, 'CNAME' | 'NS' | 'MX' | 'TXT' | 'SRV'>;
  /** The host the record names, inside the unregistered domain. */
  target: string;
  registrable: string;
  /** What the records showed before RDAP was asked. */
  evidence: string[];
  /** Evidence that must hold again besides the registration (e.g. the CNAME chain still ends there). */
  alsoHolds?: () => Promise<string | undefined>;
  /** What the finding says, where the record's type alone does not tell (a DMARC report address). */
  texts?: { explanation: string; proofOfConcept: string; remediation: string };
}

/**
 * A record into a domain nobody has registered: claimable by anyone who registers it. The same rule
 * for CNAME, NS, MX, SRV and SPF includes; validation asks RDAP and DNS again.
 */
export function unregisteredCandidate(ctx: ScanContext, t: UnregisteredTarget): Candidate {
  const spf = t.recordType === 'TXT';
  return {
    kind: spf ? 'mail' : 'unregistered-domain',
    finding: {
      subdomain: t.subdomain,
      recordType: t.recordType,
      target: t.target,
      service: `unregistered domain ${t.registrable}`,
      status: 'claimable',
      risk: 'high',
      evidence: [...t.evidence, `${t.registrable} is not registered (RDAP 404, no delegation in DNS)`],
      proof: rdapProof(t.registrable, '404: not registered, and no delegation in DNS'),
      ...(t.texts ??
        (spf ? spfTexts(t.target, t.registrable) : unregisteredTexts(t.recordType, t.target, t.registrable))),
    },
    recheck: async () => {
      const held = t.alsoHolds ? await t.alsoHolds() : undefined;
      if (t.alsoHolds && !held) return undefined;
      if (!(await ctx.unregistered(t.target, true))) return undefined;
      const again = `RDAP still 404 and no delegation for ${t.registrable}`;
      return held ? `${held}; ${again}` : again;
    },
  };
}

/** The candidate for a record's target when its domain is not registered, else `undefined`. */
export async function ifUnregistered(
  ctx: ScanContext,
  t: Omit<UnregisteredTarget, 'registrable' | 'texts'> & {
    texts?: (registrable: string) => UnregisteredTarget['texts'];
  },
): Promise<Candidate | undefined> {
  const registrable = await ctx.unregistered(t.target);
  return registrable
    ? unregisteredCandidate(ctx, { ...t, registrable, texts: t.texts?.(registrable) })
    : undefined;
}
