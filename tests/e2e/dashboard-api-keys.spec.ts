import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config.ts';
import { blockingViolations, grantPlan, signInToDashboard } from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 120_000 });

const callApi = (key: string) =>
  fetch(`${baseURL}/api/v1/domains`, { headers: { authorization: `Bearer ${key}` } });

test('API keys in settings: the plan requirement, create and copy a key, call /api/v1 with it, revoke it', async ({
  page,
  context,
}) => {
  const account = await signInToDashboard(page, context, 'Ada Api');
  await page.goto('/dashboard?section=settings&tab=api');
  const panel = page.getByTestId('api-keys-panel');
  await expect(panel.getByTestId('api-plan')).toHaveText(
    'The public API comes with the Intro plan and above; your Free plan has no API access. See your plan',
  );
  await expect(panel.getByRole('link', { name: 'See your plan' })).toHaveAttribute(
    'href',
    '/dashboard?section=settings&tab=plan',
  );
  await expect(panel.getByRole('button', { name: 'Create Key' })).toHaveCount(0);

  await grantPlan(account.email, 'solo');
  await page.reload();
  await expect(panel.getByText('Your Solo plan allows 100 calls per hour')).toBeVisible();
  await expect(panel.getByText('No API keys yet.')).toBeVisible();
  await panel.getByLabel('Key name').fill('Nightly CI');
  await panel.getByRole('button', { name: 'Create Key' }).click();
  const shown = panel.getByTestId('new-api-key');
  await expect(shown).toContainText('It is shown only this once');
  const secret = (await shown.locator('code').textContent()) ?? '';
  expect(secret).toMatch(/^dw_[A-Za-z0-9_-]{43}$/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await shown.getByRole('button', { name: 'Copy the new API key' }).click();
  await expect(page.getByText('API key copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect(await blockingViolations(page)).toEqual([]);

  const res = await callApi(secret);
  expect(res.status).toBe(200);
  expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
  expect(((await res.json()) as { domains: unknown[] }).domains).toEqual([]);

  // After a reload the key is listed by its first characters only, with its last use.
  await page.reload();
  const row = panel.getByRole('row', { name: /Nightly CI/ });
  await expect(row).toContainText(`${secret.slice(0, 11)}…`);
  await expect(row.getByRole('cell').nth(2)).not.toHaveText('Never');
  await expect(panel).not.toContainText(secret);

  await row.getByRole('button', { name: 'Revoke Nightly CI' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke API Key' });
  await expect(dialog).toContainText(`Revoke Nightly CI (${secret.slice(0, 11)}…)?`);
  await dialog.getByRole('button', { name: 'Revoke Key' }).click();
  await expect(row).toContainText('Revoked');
  expect((await callApi(secret)).status).toBe(401);
});
