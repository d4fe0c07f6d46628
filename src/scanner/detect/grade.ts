import type { Entry } from '../fingerprints/schema.ts';
import type { FindingStatus, Risk } from '../types.ts';

/**
 * A service's own status decides how sure a finding may be; nothing else makes it claimable, and
 * only a claim that needs no more than a free account or a registration is called claimable.
 */
export function gradeFor(entry: Entry): { status: FindingStatus; risk: Risk } {
  if (entry.status === 'vulnerable') return { status: entry.paid ? 'likely' : 'claimable', risk: 'high' };
  if (entry.status === 'edge') return { status: 'likely', risk: 'medium' };
  return { status: 'review', risk: 'low' };
}
