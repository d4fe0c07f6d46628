import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEGAL_REVISIONS, pageDates } from '../../../src/content/legal-revisions.ts';

const dir = new URL('../../../src/content/legal/', import.meta.url);
const firstWritten = Object.fromEntries(
  readdirSync(dir)
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => {
      const date = readFileSync(new URL(file, dir), 'utf8').match(/^updated: (\S+)$/m)?.[1];
      return [file.replace(/\.mdx$/, ''), new Date(`${date}T00:00:00Z`)];
    }),
);

describe('the legal pages’ revisions', () => {
  it.each(LEGAL_REVISIONS.map((revision) => [revision.date, revision] as const))(
    '%s names pages that exist and comes after their first text',
    (_, revision) => {
      for (const page of revision.pages) {
        expect(Object.keys(firstWritten)).toContain(page);
        expect(new Date(`${revision.date}T00:00:00Z`).getTime()).toBeGreaterThan(
          firstWritten[page]?.getTime() ?? 0,
        );
      }
    },
  );

  it('dates a changed page by its change and keeps the earlier text’s date', () => {
    const dates = pageDates('terms-of-service', firstWritten['terms-of-service'] as Date);
    expect(dates.updated.toISOString().slice(0, 10)).toBe('2026-11-29');
    expect(dates.earlier?.toISOString().slice(0, 10)).toBe('2025-08-25');
    expect(dates.changes.map((c) => c.change)).toEqual([
      'The Intro plan now includes the public API, at 100 calls an hour.',
    ]);
  });

  it('leaves an unchanged page with its first date and no earlier one', () => {
    const first = firstWritten['service-level-agreement'] as Date;
    expect(pageDates('service-level-agreement', first)).toEqual({
      updated: first,
      earlier: null,
      changes: [],
    });
  });

  it('dates every page that shows the plan limits by the latest change to the plans', () => {
    const latest = LEGAL_REVISIONS.find((revision) => revision.change.includes('public API'));
    for (const [page] of Object.entries(firstWritten)) {
      const text = readFileSync(new URL(`${page}.mdx`, dir), 'utf8');
      if (text.includes('<PlanLimitsTable')) expect(latest?.pages, page).toContain(page);
    }
  });
});
