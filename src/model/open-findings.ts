import type { FindingStatus, OpenFindingCounts } from './contract.ts';

export const NO_OPEN_FINDINGS: OpenFindingCounts = { claimable: 0, likely: 0, review: 0, accepted: 0 };

/** What of a finding decides whether it was open at a moment, and how it counted. */
export interface FindingState {
  status: FindingStatus | string;
  firstSeenAt: Date;
  resolvedAt: Date | null;
  acceptedAt: Date | null;
}

/**
 * A domain's open findings by status, the accepted ones apart: as they stand (no `at`), or at a
 * moment past: seen by then, not resolved by then, accepted by then or not. The one reckoning
 * behind every number a domain shows (its badge, its counts by status, its trend, the totals and
 * the alerts): as they stand it is the card's and the trend's latest point; at each earlier scan's
 * end, the trend's past.
 */
export function openFindingsAt(findings: readonly FindingState[], at?: Date): OpenFindingCounts {
  const when = at?.getTime() ?? Number.POSITIVE_INFINITY;
  const counts = { ...NO_OPEN_FINDINGS };
  for (const f of findings) {
    if (f.firstSeenAt.getTime() > when) continue;
    if (f.resolvedAt && f.resolvedAt.getTime() <= when) continue;
    if (f.acceptedAt && f.acceptedAt.getTime() <= when) counts.accepted += 1;
    else if (f.status === 'claimable' || f.status === 'likely' || f.status === 'review')
      counts[f.status] += 1;
  }
  return counts;
}

/** Open findings that are not accepted: the number a domain's badge, the totals and the alerts show. */
export function openCount(counts: OpenFindingCounts): number {
  return counts.claimable + counts.likely + counts.review;
}
