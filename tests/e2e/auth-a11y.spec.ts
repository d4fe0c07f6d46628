import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { hydrated, newAccount, prepareSignIn, signInThroughPopup } from '../helpers/emulator-e2e.ts';

async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('axe: /login has no serious or critical violation', async ({ page }) => {
  await page.goto('/login');
  await hydrated(page);
  await expect(page.getByText('Checking authentication configuration...')).toHaveCount(0);
  expect(await blockingViolations(page)).toEqual([]);
});

test('axe: the signed-in dashboard sections and the open account menu', async ({ page, context }) => {
  await prepareSignIn(context);
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', newAccount('Ally Axe'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Security Scans' })).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);
  for (const [button, heading] of [
    ['Domains', 'Domain Management'],
    ['Settings', 'Your DangleWatch Account'],
  ] as const) {
    await page.getByRole('button', { name: button, exact: true }).click();
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    expect(await blockingViolations(page)).toEqual([]);
  }
  await page.getByTestId('header-auth').getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu', { name: 'Account' }).first()).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);
});
