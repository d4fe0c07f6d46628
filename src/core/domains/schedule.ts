import { SCAN_INTERVAL_MS } from '../../model/constants.ts';
import type { DomainRow } from './views.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const MINUTES_PER_DAY = DAY_MS / MINUTE_MS;

/** What places a domain in the day: its workspace and name, never its id (stable across re-adding). */
type Scheduled = Pick<DomainRow, 'workspaceId' | 'domain' | 'scanConfig'>;

/**
 * The minute of the day (UTC, 0 to 1,439) at which a domain's scheduled scans run: drawn from its
 * workspace and name (FNV-1a), so the domains of one workspace, and of all workspaces, fall all over
 * the day, and a domain keeps its minute for as long as it exists. Verifying a thousand domains at
 * once, or an outage, then costs one busy pass, not one every day at the same time.
 */
export function scanMinuteOf(domain: Pick<DomainRow, 'workspaceId' | 'domain'>): number {
  let hash = 0x811c9dc5;
  for (const char of `${domain.workspaceId}\n${domain.domain}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % MINUTES_PER_DAY;
}

/**
 * When the schedule scans a domain next, after a scan at `last` (null: only on request): at the
 * domain's minute of the day nearest to one interval (a day, a week) after `last`. A scan that ran
 * at its minute is followed by the next one exactly an interval later; one that ran elsewhere in the
 * day (the first after verifying, one asked for by hand, one late after an outage) moves the next
 * one back to the domain's minute, between half a day before and half a day after the interval.
 */
export function nextScanAfter(domain: Scheduled, last: Date): Date | null {
  const frequency = domain.scanConfig.scanFrequency;
  if (frequency === 'manual') return null;
  const target = last.getTime() + SCAN_INTERVAL_MS[frequency];
  const sameDay = Math.floor(target / DAY_MS) * DAY_MS + scanMinuteOf(domain) * MINUTE_MS;
  const nearest = [sameDay - DAY_MS, sameDay, sameDay + DAY_MS].reduce((best, at) =>
    Math.abs(at - target) < Math.abs(best - target) ? at : best,
  );
  return new Date(nearest);
}
