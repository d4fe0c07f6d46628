import { describe, expect, it } from 'vitest';
import {
  dataAgeBadge,
  domainScanStatusLabel,
  domainsUsed,
  formatAge,
  formatDuration,
  isScanActive,
  progressPercent,
  progressText,
  riskLabel,
  shortId,
} from '../../../../src/lib/dashboard/format.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('dashboard formatting', () => {
  it('shortens a scan id to its first 8 characters', () => {
    expect(shortId('0f8e6c1a-93b2-4d1e-8a7c-5e2b1f0d9c3a')).toBe('0f8e6c1a');
  });

  it('shows a duration in seconds, or minutes and seconds', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(135)).toBe('2m 15s');
    expect(formatDuration(null)).toBe('—');
  });

  it('says how long ago: Just now, Nm ago, Nh ago, Nd ago', () => {
    expect(formatAge(ago(30_000), NOW)).toBe('Just now');
    expect(formatAge(ago(5 * 60_000), NOW)).toBe('5m ago');
    expect(formatAge(ago(3 * 3_600_000), NOW)).toBe('3h ago');
    expect(formatAge(ago(2 * 86_400_000), NOW)).toBe('2d ago');
    // A clock a little ahead of the server's never shows a negative age.
    expect(formatAge(new Date(NOW + 5_000).toISOString(), NOW)).toBe('Just now');
  });

  it("reads 'Stale: {age}' after 30 minutes, else 'Updated {age}'", () => {
    expect(dataAgeBadge(ago(29 * 60_000), NOW)).toEqual({ label: 'Updated 29m ago', stale: false });
    expect(dataAgeBadge(ago(30 * 60_000), NOW)).toEqual({ label: 'Updated 30m ago', stale: false });
    expect(dataAgeBadge(ago(31 * 60_000), NOW)).toEqual({ label: 'Stale: 31m ago', stale: true });
    expect(dataAgeBadge(ago(26 * 3_600_000), NOW).label).toBe('Stale: 1d ago');
  });

  it('writes risk upper case followed by RISK', () => {
    expect(riskLabel('high')).toBe('HIGH RISK');
    expect(riskLabel('medium')).toBe('MEDIUM RISK');
  });

  it("names a domain's scan status: running is 'Scanning...', others capitalised", () => {
    expect(domainScanStatusLabel('running')).toBe('Scanning...');
    expect(domainScanStatusLabel('completed')).toBe('Completed');
    expect(domainScanStatusLabel('failed')).toBe('Failed');
    expect(domainScanStatusLabel('cancelled')).toBe('Cancelled');
    expect(domainScanStatusLabel(null)).toBe('Not scanned');
  });

  it('tells live progress: stage and names checked of the total', () => {
    expect(progressText({ stage: 'resolve', checked: 120, total: 1500 })).toBe(
      'Resolving records: 120 of 1,500 names checked',
    );
    expect(progressText({ stage: 'validate', checked: 1, total: 2 })).toBe(
      'Validating findings: 1 of 2 findings checked',
    );
    expect(progressText({ stage: 'discover', checked: 0, total: 0 })).toBe('Discovering subdomains');
    expect(progressText(null)).toBe('Waiting for a worker');
    expect(progressPercent({ stage: 'resolve', checked: 50, total: 200 })).toBe(25);
    expect(progressPercent({ stage: 'resolve', checked: 0, total: 0 })).toBeNull();
  });

  it("counts 'N of M domains used' and knows which scans are still going", () => {
    expect(domainsUsed(1, 25)).toBe('1 of 25 domains used');
    expect(domainsUsed(0, 1)).toBe('0 of 1 domain used');
    expect(isScanActive('pending')).toBe(true);
    expect(isScanActive('running')).toBe(true);
    expect(isScanActive('completed')).toBe(false);
    expect(isScanActive(null)).toBe(false);
  });
});
