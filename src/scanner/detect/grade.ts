import type { Entry } from '../fingerprints/schema.ts';
import type { FindingStatus, Risk } from '../types.ts';

export interface Grade {
  status: FindingStatus;
  risk: Risk;
  /** How far a provider's answer that the name is free may raise this review (an edge case's). */
  upTo?: FindingStatus;
}

/**
 * A service's own status decides how sure a finding may be (the rules of src/scanner/README.md,
 * "Status rules"): nothing else makes it claimable, and only a claim that needs no more than a free
 * account or a registration is called claimable. An edge case is review until a provider says the
 * name is free; a retired service, one that verifies ownership, and a shared host that verifies
 * the custom domain itself before it serves it are review whatever their page says.
 */
export function gradeFor(entry: Entry): Grade {
  if (entry.status === 'retired' || entry.status === 'not-vulnerable' || entry.verifiesDomain)
    return { status: 'review', risk: 'low' };
  if (entry.status === 'vulnerable') return { status: entry.paid ? 'likely' : 'claimable', risk: 'high' };
  return { status: 'review', risk: 'medium', upTo: 'likely' };
}
