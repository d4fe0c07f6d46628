import { expect, test } from '@playwright/test';
import { blockingViolations } from '../helpers/axe.ts';
import { hydrated, newAccount, prepareSignIn, signInThroughPopup } from '../helpers/emulator-e2e.ts';

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
