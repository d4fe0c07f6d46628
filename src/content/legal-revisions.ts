/**
 * Every change made to the legal pages since they were first published, newest last. A page's
 * front matter keeps the date its text was first written; the page shows the date of its latest
 * change here and that earlier date, so a reader can tell what they agreed to from what is in force.
 */
export interface LegalRevision {
  /** ISO date the change took effect. */
  date: string;
  /** The pages it changed, by file name (terms-of-service.mdx → 'terms-of-service'). */
  pages: readonly string[];
  /** What changed, in a sentence. */
  change: string;
}

export const LEGAL_REVISIONS: readonly LegalRevision[] = [
  {
    date: '2026-11-29',
    pages: ['terms-of-service', 'acceptable-use-policy'],
    change: 'The Intro plan now includes the public API, at 100 calls an hour.',
  },
  {
    date: '2026-11-29',
    pages: ['privacy-policy', 'data-processing-agreement'],
    change:
      'Every kind of credential we hold is listed, with what it can do: tracker and pager tokens write issues and incidents, and webhook addresses and secrets are kept as given.',
  },
];

export interface PageDates {
  /** The date the text in force took effect. */
  updated: Date;
  /** The date of the text it replaced; null while the page was never changed. */
  earlier: Date | null;
  /** The changes since the page was first published, oldest first. */
  changes: readonly LegalRevision[];
}

/** A page's dates, from its first text's date and the revisions that touched it. */
export function pageDates(page: string, firstWritten: Date): PageDates {
  const changes = LEGAL_REVISIONS.filter((revision) => revision.pages.includes(page));
  const dates = [firstWritten, ...changes.map((revision) => new Date(`${revision.date}T00:00:00Z`))];
  return {
    updated: dates[dates.length - 1] ?? firstWritten,
    earlier: dates.length > 1 ? (dates[dates.length - 2] ?? null) : null,
    changes,
  };
}
