import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/**
 * axe over the page, WCAG 2.1 A and AA plus best practice. Legacy mode: by default AxeBuilder opens
 * a blank page after every run to merge the frames' results, about twice the cost of the run itself
 * on these machines, and our pages hold no frame of their own to merge.
 */
export function axeResults(page: Page, exclude?: string): Promise<AxeResults> {
  const builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  return (exclude ? builder.exclude(exclude) : builder).analyze();
}

/** The serious and critical violations, one line each with the nodes they hit. */
export function blocking(results: AxeResults): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export async function blockingViolations(page: Page, exclude?: string): Promise<string[]> {
  return blocking(await axeResults(page, exclude));
}
