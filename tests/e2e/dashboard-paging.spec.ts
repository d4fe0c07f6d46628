import { expect, test } from '@playwright/test';
import { seedScans, signInToDashboard } from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 120_000 });

test("scans page from the server: 'Load More Scans' adds ten at a time until all are shown", async ({
  page,
  context,
}) => {
  const account = await signInToDashboard(page, context, 'Pat Pages', 'scans');
  await expect(page.getByRole('heading', { name: 'No scans yet' })).toBeVisible();
  await seedScans(account.email, 'paging.example.com', 23);
  await page.reload();

  const cards = page.getByTestId('scan-card');
  await expect(cards).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Completed (23)' })).toBeVisible();
  await page.getByRole('button', { name: 'Load More Scans' }).click();
  await expect(cards).toHaveCount(20);
  await page.getByRole('button', { name: 'Load More Scans' }).click();
  await expect(cards).toHaveCount(23);
  await expect(page.getByRole('button', { name: 'Load More Scans' })).toHaveCount(0);
  // Newest first, each exactly once: the last card is the oldest scan (10 + 22 names).
  await expect(cards.last()).toContainText('32');
});
