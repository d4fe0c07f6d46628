import { describe, expect, it } from 'vitest';
import {
  acceptanceEnded,
  defaultUntilDate,
  lapsedSentence,
  parseUntil,
  untilProblem,
} from '../../../src/model/acceptance.ts';

const now = new Date('2026-11-22T12:00:00.000Z');

describe('when an accepted risk ends', () => {
  it('reads a date-time with its offset, a date alone as the end of that day UTC, or record-changes', () => {
    expect(parseUntil('2026-12-01T10:00:00+02:00')).toEqual(new Date('2026-12-01T08:00:00.000Z'));
    expect(parseUntil('2026-12-01')).toEqual(new Date('2026-12-01T23:59:59.999Z'));
    expect(parseUntil('record-changes')).toBe('record-changes');
  });

  it('refuses anything else as malformed', () => {
    for (const bad of ['', 'tomorrow', '2026-02-30', '2026-12-01T10:00', '12/01/2026', 42, null, undefined])
      expect(parseUntil(bad)).toBeNull();
  });

  it('takes an expiry a minute to a year ahead, and says why it refuses another', () => {
    expect(untilProblem(new Date('2026-11-22T11:00:00Z'), now)).toMatch(/in the past/);
    expect(untilProblem(new Date('2026-11-22T12:00:30Z'), now)).toMatch(/at least a minute/);
    expect(untilProblem(new Date('2027-11-23T12:00:00Z'), now)).toMatch(/at most 365 days/);
    expect(untilProblem(new Date('2026-11-22T12:01:00Z'), now)).toBeNull();
    expect(untilProblem(new Date('2027-11-22T12:00:00Z'), now)).toBeNull();
  });

  it('counts a missing or malformed expiry as ended, record-changes as open-ended', () => {
    expect(acceptanceEnded(null, now)).toBe(true);
    expect(acceptanceEnded(undefined, now)).toBe(true);
    expect(acceptanceEnded('soon', now)).toBe(true);
    expect(acceptanceEnded('2026-11-22T11:59:59Z', now)).toBe(true);
    expect(acceptanceEnded('2026-11-22', now)).toBe(false);
    expect(acceptanceEnded('record-changes', now)).toBe(false);
  });

  it('offers 30 days ahead, and words the alert of an ended acceptance', () => {
    expect(defaultUntilDate(now)).toBe('2026-12-22');
    expect(lapsedSentence('Ann', '2026-11-22T12:00:00.000Z', '2026-11-22T12:00:30.000Z')).toBe(
      'the acceptance by Ann expired on 2026-11-22',
    );
    expect(lapsedSentence(null, null, '2026-11-23T00:00:00.000Z')).toBe(
      'the acceptance by a former member expired on 2026-11-23',
    );
    expect(lapsedSentence('Bob', 'record-changes', '2026-11-24T00:00:00.000Z')).toBe(
      'the acceptance by Bob expired on 2026-11-24 (the record changed)',
    );
  });
});
