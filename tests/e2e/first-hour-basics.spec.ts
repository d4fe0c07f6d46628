import { expect, test } from '@playwright/test';
import {
  addVerifiedDomain,
  blockingViolations,
  grantPlan,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';
import { WIDTHS } from '../helpers/viewports.ts';

test.describe.configure({ timeout: 180_000 });

/**
 * A subdomain of a domain the workspace has proven needs no record of its own, and says whose proof covers it; a dialog opened from the keyboard and closed with Escape
 * gives the focus back to what opened it, so the next Tab goes on from there. At 390 and 1280 px.
 */
test('a subdomain under a proven parent is verified on its proof; a closed dialog gives the focus back', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `parent-${stamp}.dev`;
  const email = `pia.${stamp}@${domain}`;
  await signInToDashboard(page, context, { email, name: 'Pia Parent' });
  await addVerifiedDomain(page, domain);
  // Free monitors one domain: the second is the subdomain, on Intro.
  await grantPlan(email, 'intro');
  await page.reload();

  await page.getByRole('button', { name: 'Add Domain', exact: true }).click();
  const input = page.getByRole('dialog', { name: 'Add Domain to Monitor' });
  await input.getByLabel('Domain', { exact: true }).fill(`app.${domain}`);
  await input.getByRole('button', { name: 'Configure Scanning' }).click();
  await page
    .getByRole('dialog', { name: 'Scan Configuration' })
    .getByRole('button', { name: 'Add Domain' })
    .click();
  // No TXT step: the parent's proof covers it, and the toast says whose.
  await expect(page.getByRole('dialog', { name: 'Domain Added - Verification Required' })).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: `verified by the proof of ${domain}` }),
  ).toBeVisible();
  const card = page.getByTestId('domain-card').filter({ hasText: `app.${domain}` });

  for (const [label, viewport] of WIDTHS) {
    await page.setViewportSize(viewport);
    await expect(card.getByTestId('ownership-proof'), label).toHaveText(`Covered by the proof of ${domain}`);
    expect(await blockingViolations(page), label).toEqual([]);

    // From the keyboard: the card's actions menu opens Scan Settings; Escape closes it and the focus
    // is back on the menu's button, not on the page's body.
    const actions = card.getByRole('button', { name: `Actions for app.${domain}` });
    await actions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Scan Settings' }).press('Enter');
    await expect(page.getByRole('dialog', { name: 'Scan Settings' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Scan Settings' }), label).toHaveCount(0);
    await expect(actions, label).toBeFocused();
  }
});
