import { describe, expect, it } from 'vitest';
import { nextScanAfter, scanMinuteOf } from '../../../../src/core/domains/schedule.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const daily = (workspaceId: string, domain: string) => ({
  workspaceId,
  domain,
  scanConfig: DEFAULT_SCAN_CONFIG,
});

describe("a domain's minute of the day", () => {
  it('spreads 1,000 daily domains verified at the same moment over the 24 hours', () => {
    const verifiedAt = new Date('2026-11-22T09:30:00Z');
    // Ten workspaces of a hundred domains, named as people name them.
    const perHour = new Array<number>(24).fill(0);
    for (let w = 0; w < 10; w++) {
      for (let d = 0; d < 100; d++) {
        const next = nextScanAfter(daily(`workspace-${w}`, `shop-${d}.example${w}.com`), verifiedAt);
        if (!next) throw new Error('no next scan');
        perHour[next.getUTCHours()] = (perHour[next.getUTCHours()] ?? 0) + 1;
      }
    }
    const mean = 1000 / 24;
    expect(Math.min(...perHour)).toBeGreaterThan(0);
    expect(Math.max(...perHour)).toBeLessThan(2 * mean);
  });

  it("differs between workspaces for the same name, and stays the domain's own", () => {
    const minutes = new Set(
      Array.from({ length: 50 }, (_, i) => scanMinuteOf(daily(`team-${i}`, 'acme.com'))),
    );
    expect(minutes.size).toBeGreaterThan(40);
    expect(scanMinuteOf(daily('team-1', 'acme.com'))).toBe(scanMinuteOf(daily('team-1', 'acme.com')));
    for (const minute of minutes) expect(minute).toBeGreaterThanOrEqual(0);
    for (const minute of minutes) expect(minute).toBeLessThan(24 * 60);
  });
});

describe('the next scheduled scan', () => {
  const domain = daily('ann', 'acme.com');
  const minute = scanMinuteOf(domain);
  const slot = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + minute * 60_000);

  it('runs at the minute of the day nearest one day after the last scan', () => {
    for (const hours of [0, 5, 11, 13, 18, 23.9]) {
      const last = new Date(Date.parse('2026-11-22T00:00:00Z') + hours * HOUR);
      const next = nextScanAfter(domain, last);
      expect(next?.getTime(), `after ${hours} h`).toBeGreaterThanOrEqual(last.getTime() + DAY / 2);
      expect(next?.getTime(), `after ${hours} h`).toBeLessThanOrEqual(last.getTime() + DAY + DAY / 2);
      expect(((next?.getTime() ?? 0) % DAY) / 60_000).toBe(minute);
    }
  });

  it('is exactly one day after a scan at the minute, or a few minutes past it', () => {
    const at = slot('2026-11-22');
    expect(nextScanAfter(domain, at)).toEqual(slot('2026-11-23'));
    expect(nextScanAfter(domain, new Date(at.getTime() + 7 * 60_000))).toEqual(slot('2026-11-23'));
  });

  it('is a week on for a weekly domain, at the same minute; never for a manual one', () => {
    const at = slot('2026-11-22');
    expect(
      nextScanAfter({ ...domain, scanConfig: { ...DEFAULT_SCAN_CONFIG, scanFrequency: 'weekly' } }, at),
    ).toEqual(slot('2026-11-29'));
    expect(
      nextScanAfter({ ...domain, scanConfig: { ...DEFAULT_SCAN_CONFIG, scanFrequency: 'manual' } }, at),
    ).toBe(null);
  });
});
