import { STALE_AFTER_MS } from '../../model/constants.ts';
import type { ScanProgress, ScanStatus } from '../../model/contract.ts';
import { countOf } from '../../model/messages.ts';

/** A scan id is shown as its first 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** A scan's duration: seconds, or minutes and seconds. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 ? `${minutes}m` : `${minutes}m ${rest}s`;
}

/** How long ago: Just now, Nm ago, Nh ago, Nd ago. */
export function formatAge(fromIso: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(fromIso));
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** The data-age badge: 'Stale: {age}' when older than 30 minutes, else 'Updated {age}'. */
export function dataAgeBadge(fromIso: string, now: number): { label: string; stale: boolean } {
  const stale = now - Date.parse(fromIso) > STALE_AFTER_MS;
  const age = formatAge(fromIso, now);
  return { label: stale ? `Stale: ${age}` : `Updated ${age}`, stale };
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A date and time for cards; 'Never' when there is none. */
export function formatDateTime(iso: string | null | undefined, never = 'Never'): string {
  if (!iso) return never;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? never : dateTime.format(time);
}

/** Risk as the scan card shows it: upper case followed by RISK. */
export function riskLabel(risk: string): string {
  return `${risk.toUpperCase()} RISK`;
}

/** A word capitalised: 'pending' → 'Pending'. */
export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The domain card's scan status: running reads 'Scanning...', others capitalised. */
export function domainScanStatusLabel(status: ScanStatus | null): string {
  if (status === null) return 'Not scanned';
  if (status === 'running') return 'Scanning...';
  return capitalise(status);
}

const STAGES: Record<string, string> = {
  queued: 'Waiting for a worker',
  discover: 'Discovering subdomains',
  resolve: 'Resolving records',
  validate: 'Validating findings',
  done: 'Finishing',
};

/** A running scan's live progress in words: the stage, and the names checked of the total. */
export function progressText(progress: ScanProgress | null): string {
  if (!progress) return 'Waiting for a worker';
  const stage = STAGES[progress.stage] ?? capitalise(progress.stage);
  if (progress.total <= 0) return stage;
  const noun = progress.stage === 'validate' ? 'findings checked' : 'names checked';
  return `${stage}: ${progress.checked.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} ${noun}`;
}

/** Percentage of a running scan's stage, 0 to 100; null when the total is not known yet. */
export function progressPercent(progress: ScanProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.round((progress.checked / progress.total) * 100));
}

/** 'N of M domains used', '0 of 1 domain used'. */
export function domainsUsed(current: number, max: number): string {
  return `${current} of ${countOf(max, 'domain')} used`;
}

/** Whether a scan is still going: its progress is worth polling. */
export function isScanActive(status: ScanStatus | null | undefined): boolean {
  return status === 'pending' || status === 'running';
}
