import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBaseline } from '../../../src/cli/scan-baseline.ts';
import { findingView } from '../../fixtures/finding.ts';

const dir = mkdtempSync(join(tmpdir(), 'dw-baseline-'));
const now = new Date('2026-11-22T12:00:00.000Z');
const a = findingView('a.acme.com');
const b = findingView('b.acme.com');
const c = findingView('c.acme.com');
const d = findingView('d.acme.com');

function baseline(name: string, findings: object[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ domain: 'acme.com', findings }));
  return path;
}

describe('--baseline with accepted risks that expire', () => {
  it('a JSON report carrying acceptedUntil hides only the acceptances still running', async () => {
    const known = await readBaseline(
      baseline('accepted.json', [
        { ...a, acceptedUntil: '2026-12-01T00:00:00Z' },
        { ...b, acceptedUntil: '2026-11-22T11:00:00Z' },
        { ...c, acceptedUntil: 'record-changes' },
        { ...d, acceptedUntil: 'next week' },
        findingView('e.acme.com'),
      ]),
      now,
    );
    expect(known(a)).toBe(true);
    expect(known(b)).toBe(false);
    expect(known(c)).toBe(true);
    // Malformed or missing, in a report that dates its acceptances: expired.
    expect(known(d)).toBe(false);
    expect(known(findingView('e.acme.com'))).toBe(false);
  });

  it('a date alone runs to the end of that day, UTC', async () => {
    const known = await readBaseline(baseline('day.json', [{ ...a, acceptedUntil: '2026-11-22' }]), now);
    expect(known(a)).toBe(true);
    const later = await readBaseline(join(dir, 'day.json'), new Date('2026-11-23T00:00:00Z'));
    expect(later(a)).toBe(false);
  });

  it('a report without acceptedUntil is a plain baseline, as before', async () => {
    const known = await readBaseline(baseline('plain.json', [a]), now);
    expect(known(a)).toBe(true);
    expect(known(b)).toBe(false);
  });
});
