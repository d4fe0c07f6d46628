import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/**
 * What axe looks at: the whole page by default. `within` narrows it to what changed on a page
 * already checked whole (an open modal dialog, a settings tab's panel): axe costs about half a
 * second of a core per run on the dashboard, and the browser lane runs it more than a hundred times.
 */
export interface Scope {
  exclude?: string;
  within?: string;
}

/**
 * axe over the page, WCAG 2.1 A and AA plus best practice. Legacy mode: by default AxeBuilder opens
 * a blank page after every run to merge the frames' results, about twice the cost of the run itself
 * on these machines, and our pages hold no frame of their own to merge.
 */
export function axeResults(page: Page, { exclude, within }: Scope = {}): Promise<AxeResults> {
  const builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  if (within) builder.include(within);
  if (exclude) builder.exclude(exclude);
  return builder.analyze();
}

/** The serious and critical violations, one line each with the nodes they hit. */
export function blocking(results: AxeResults): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export async function blockingViolations(page: Page, scope?: Scope): Promise<string[]> {
  return blocking(await axeResults(page, scope));
}
