/**
 * When an accepted risk stops being accepted. Shared by the API (which checks what it is given), the
 * dashboard (which offers a date) and the CLI (whose `--baseline` reads `acceptedUntil`).
 */

/** The one open-ended choice: accepted until the record's target or kind changes. */
export const UNTIL_RECORD_CHANGES = 'record-changes';
/** What the dashboard offers first; never applied behind the user's back. */
export const ACCEPT_DEFAULT_DAYS = 30;
export const ACCEPT_MAX_DAYS = 365;
/** An expiry closer than this is a typo, not a decision. */
export const ACCEPT_MIN_AHEAD_MS = 60_000;
/** The weekly summary names the acceptances ending within this many days. */
export const EXPIRING_SOON_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `until` as given: an ISO 8601 date-time with its offset, a date alone (the end of that day, UTC),
 * or `record-changes`. Anything else is null: malformed.
 */
export function parseUntil(text: unknown): Date | typeof UNTIL_RECORD_CHANGES | null {
  if (typeof text !== 'string') return null;
  const value = text.trim();
  if (value === UNTIL_RECORD_CHANGES) return UNTIL_RECORD_CHANGES;
  const day = DATE_ONLY.exec(value);
  if (day) {
    const end = new Date(`${value}T23:59:59.999Z`);
    // 2026-02-30 parses as March 2nd in some engines: a date must name itself.
    return Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== value ? null : end;
  }
  if (!DATE_TIME.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Why an expiry cannot be taken now, in words; null when it can. */
export function untilProblem(until: Date, now: Date): string | null {
  if (until.getTime() <= now.getTime()) return 'The expiry is in the past: choose a date ahead';
  if (until.getTime() < now.getTime() + ACCEPT_MIN_AHEAD_MS)
    return 'The expiry must be at least a minute ahead';
  if (until.getTime() > now.getTime() + ACCEPT_MAX_DAYS * DAY_MS)
    return `The expiry must be at most ${ACCEPT_MAX_DAYS} days ahead`;
  return null;
}

/**
 * Whether an acceptance has ended by `now`. A missing or malformed expiry counts as ended: an
 * acceptance nobody dated must show itself rather than hide a finding for ever.
 */
export function acceptanceEnded(until: unknown, now: Date): boolean {
  const parsed = parseUntil(until);
  if (parsed === null) return true;
  if (parsed === UNTIL_RECORD_CHANGES) return false;
  return parsed.getTime() <= now.getTime();
}

/** The default expiry the dashboard offers: 30 days from now, as a date (YYYY-MM-DD). */
export function defaultUntilDate(now: Date): string {
  return new Date(now.getTime() + ACCEPT_DEFAULT_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/** "the acceptance by N expired on D": what the alert of an ended acceptance says. */
export function lapsedSentence(by: string | null, until: string | null, endedAt: string): string {
  const who = by ?? 'a former member';
  const on = until && until !== UNTIL_RECORD_CHANGES ? until : endedAt;
  const why = until === UNTIL_RECORD_CHANGES ? ' (the record changed)' : '';
  return `the acceptance by ${who} expired on ${on.slice(0, 10)}${why}`;
}
