import { describe, expect, it } from 'vitest';
import { type FindingState, openCount, openFindingsAt } from '../../../src/model/open-findings.ts';

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 6));

/**
 * A domain's history: a full scan on the 1st finds a, b (claimable) and c, d (likely); a change
 * scan on the 2nd checks a's record again and finds it fixed; b is accepted on the 3rd; a full
 * scan on the 4th finds e (review) too.
 */
const history: FindingState[] = [
  { status: 'claimable', firstSeenAt: at(1), resolvedAt: at(2), acceptedAt: null },
  { status: 'claimable', firstSeenAt: at(1), resolvedAt: null, acceptedAt: at(3) },
  { status: 'likely', firstSeenAt: at(1), resolvedAt: null, acceptedAt: null },
  { status: 'likely', firstSeenAt: at(1), resolvedAt: null, acceptedAt: null },
  { status: 'review', firstSeenAt: at(4), resolvedAt: null, acceptedAt: null },
];

describe("a domain's open findings: one reckoning for every number on its card", () => {
  it('counts what was open at each scan of the history', () => {
    expect(openFindingsAt(history, at(1))).toEqual({ claimable: 2, likely: 2, review: 0, accepted: 0 });
    // The change scan resolved only what it checked: every other finding stays open.
    expect(openFindingsAt(history, at(2))).toEqual({ claimable: 1, likely: 2, review: 0, accepted: 0 });
    expect(openFindingsAt(history, at(4))).toEqual({ claimable: 0, likely: 2, review: 1, accepted: 1 });
  });

  it('as they stand, an acceptance made after the last scan counts: badge, counts and trend agree', () => {
    const beforeAcceptance = history.slice(0, 4);
    // The last scan was the change scan of the 2nd; b was accepted on the 3rd.
    const lastScan = openFindingsAt(beforeAcceptance, at(2));
    const now = openFindingsAt(beforeAcceptance);
    expect(lastScan).toEqual({ claimable: 1, likely: 2, review: 0, accepted: 0 });
    expect(now).toEqual({ claimable: 0, likely: 2, review: 0, accepted: 1 });
    // The badge's number is the counts' sum, accepted apart: 2, never 3 beside "4 likely".
    expect(openCount(now)).toBe(2);
  });

  it('leaves out what was not yet seen, and what was resolved by then', () => {
    expect(openFindingsAt(history, at(0))).toEqual({ claimable: 0, likely: 0, review: 0, accepted: 0 });
    expect(openCount(openFindingsAt(history))).toBe(3);
  });
});
