import { expect, type Route, test } from '@playwright/test';
import { blockingViolations, signInToDashboard } from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 120_000 });

test('domains: add through the three steps, see the TXT record, a failing verification, remove it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInToDashboard(page, context, 'Dana Domains');

  // Empty state, health from GET /scan/health, plan usage from the quota.
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
  await expect(page.getByTestId('health-indicator')).not.toHaveAttribute('data-status', 'unknown');
  await expect(page.getByTestId('plan-usage')).toContainText('Free plan usage');
  await expect(page.getByTestId('plan-usage')).toContainText('0 / 1');

  // Step 1: the input, its messages word for word, the suggestion from the e-mail domain.
  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Domain to Monitor' });
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('domains-used')).toHaveText('0 of 1 domain used');
  // Focus starts in the content (the suggestion), not on the Close button.
  await expect(modal.getByRole('button', { name: 'Use This' })).toBeFocused();
  await expect(modal).toContainText(
    'The Free plan monitors your e-mail domain (example.com) and its subdomains.',
  );
  await modal.getByRole('button', { name: 'Configure Scanning' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Domain is required');
  await modal.getByLabel('Domain', { exact: true }).fill('not a domain');
  await expect(modal.getByRole('alert')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Configure Scanning' }).click();
  await expect(modal.getByRole('alert')).toHaveText(
    'Please enter a valid domain (e.g., example.com or app.example.com)',
  );
  await modal.getByLabel('Domain', { exact: true }).fill('other.org');
  await modal.getByRole('button', { name: 'Configure Scanning' }).click();
  await expect(modal.getByRole('alert')).toHaveText(
    'Free tier is limited to your email domain (example.com) and its subdomains',
  );
  await modal.getByRole('button', { name: 'Use This' }).click();
  await expect(modal.getByLabel('Domain', { exact: true })).toHaveValue('example.com');
  await modal.getByRole('button', { name: 'Configure Scanning' }).click();

  // Step 2: the options, the frequency, the summary; Back keeps the domain.
  const config = page.getByRole('dialog', { name: 'Scan Configuration' });
  await expect(config.getByLabel('Certificate Transparency')).toBeChecked();
  await expect(config.getByLabel('Skip Discovery')).not.toBeChecked();
  await expect(config.getByLabel('Multi-Stage Validation')).toBeChecked();
  await expect(config.getByLabel('Scan Frequency')).toHaveValue('daily');
  await config.getByLabel('Scan Frequency').selectOption('weekly');
  await expect(config.getByTestId('config-summary')).toHaveText(
    'Scans every week with subdomain discovery, certificate transparency logs, multi-stage validation.',
  );
  await config.getByRole('button', { name: 'Back' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Add Domain to Monitor' }).getByLabel('Domain', { exact: true }),
  ).toHaveValue('example.com');
  await page.getByRole('button', { name: 'Configure Scanning' }).click();
  await page
    .getByRole('dialog', { name: 'Scan Configuration' })
    .getByRole('button', { name: 'Add Domain' })
    .click();

  // Step 3: the real TXT record with copy buttons, the guides, then the verification.
  const verify = page.getByRole('dialog', { name: 'Domain Added - Verification Required' });
  await expect(verify).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Domain Added Successfully' })).toBeVisible();
  await expect(verify.getByTestId('txt-type')).toHaveText('TXT');
  await expect(verify.getByTestId('txt-name')).toHaveText('@');
  const value = (await verify.getByTestId('txt-value').textContent()) ?? '';
  expect(value).toMatch(/^danglewatch-verify=[A-Za-z0-9_-]{16,}$/);
  await expect(verify).toContainText('Why verification?');
  await expect(verify).toContainText('DNS changes may take up to 24 hours');
  await verify.getByRole('button', { name: 'Copy TXT value' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'DNS record copied to clipboard' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  for (const [button, title] of [
    ['Cloudflare', 'Add the TXT record at Cloudflare'],
    ['AWS Route 53', 'Add the TXT record at AWS Route 53'],
    ['Other registrar or DNS host', 'Add the TXT record at Other registrar or DNS host'],
  ] as const) {
    await verify.getByRole('button', { name: button }).click();
    const guide = page.getByRole('dialog', { name: title });
    await expect(guide).toContainText(value);
    await expect(guide.getByRole('listitem')).toHaveCount(4);
    await guide.getByRole('button', { name: 'Got it' }).click();
    await expect(guide).toHaveCount(0);
  }
  // Regression: Escape closes the guide only, not the dialog that opened it.
  await verify.getByRole('button', { name: 'Cloudflare' }).click();
  await expect(page.getByRole('dialog', { name: 'Add the TXT record at Cloudflare' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Add the TXT record at Cloudflare' })).toHaveCount(0);
  await expect(verify).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);

  // No TXT record is published for example.com: the server's own reason shows.
  await verify.getByRole('button', { name: 'Done, Start Monitoring' }).click();
  await expect(verify.getByRole('alert')).toContainText('example.com');
  await verify.getByRole('button', { name: "I'll Complete This Later" }).click();
  await expect(verify).toHaveCount(0);

  // The failed card: its error, the record, a retry and the common solutions; the limit is reached.
  const card = page.getByTestId('domain-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('domain-status')).toHaveText('Failed');
  await expect(card).toContainText('Verification Failed');
  await expect(card.getByTestId('verification-error')).toContainText('example.com');
  await expect(card.getByTestId('txt-value')).toHaveText(value);
  await expect(card).toContainText('Common solutions');
  await expect(card.getByRole('button', { name: 'Retry Verify' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Add Domain', exact: true })).toBeDisabled();
  await expect(page.getByText("You've reached the maximum of 1 domain for your current plan")).toBeVisible();
  await expect(page.getByTestId('plan-usage')).toContainText('1 / 1');
  await card.getByRole('button', { name: 'Retry Verify' }).click();
  await expect(card.getByRole('button', { name: 'Retry Verify' })).toBeEnabled();
  expect(await blockingViolations(page)).toEqual([]);

  // Search: no match, then clear.
  await page.getByPlaceholder('Search domains...').fill('nothing-here');
  await expect(page.getByRole('heading', { name: 'No matching domains' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear Search' }).click();
  await expect(card).toHaveCount(1);

  // The list survives a reload: it is the server's.
  await page.reload();
  await expect(page.getByTestId('domain-card')).toContainText('example.com');

  // Remove: confirmation, a real DELETE, and after a reload it stays gone.
  await page.getByTestId('domain-card').getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Domain' });
  await expect(confirm).toContainText('Stop monitoring example.com?');
  const deleted = page.waitForResponse(
    (r) => r.request().method() === 'DELETE' && r.url().includes('/api/domains/'),
  );
  await confirm.getByRole('button', { name: 'Remove Domain' }).click();
  expect((await deleted).status()).toBe(204);
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
});

test('scans: empty state, New Scan offers only verified domains, summary and filters from the server', async ({
  page,
  context,
}) => {
  await signInToDashboard(page, context, 'Sam Scans', 'scans');
  await expect(page.getByRole('heading', { name: 'No scans yet' })).toBeVisible();
  const summary = page.getByTestId('scan-summary');
  await expect(summary).toContainText('Total Scans');
  await expect(summary).toContainText('Issues Resolved');
  await expect(page.getByRole('button', { name: 'All (0)' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Completed (0)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Running (0)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Failed (0)' })).toBeVisible();

  // A search the server answers with nothing: the 'No matching scans' state and its two ways back.
  await page.getByPlaceholder('Search by domain or scan ID...').fill('nothing');
  await expect(page.getByRole('heading', { name: 'No matching scans' })).toBeVisible();
  await page.getByRole('button', { name: 'Show All Scans' }).click();
  await expect(page.getByRole('heading', { name: 'No scans yet' })).toBeVisible();

  // A pending domain is not offered: only verified domains can be scanned.
  await page.getByRole('button', { name: 'Domains' }).click();
  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  await page.getByRole('button', { name: 'Use This' }).click();
  await page.getByRole('button', { name: 'Configure Scanning' }).click();
  await page
    .getByRole('dialog', { name: 'Scan Configuration' })
    .getByRole('button', { name: 'Add Domain' })
    .click();
  await page.getByRole('button', { name: "I'll Complete This Later" }).click();
  await expect(page.getByTestId('domain-status')).toHaveText('Pending');
  await expect(page.getByTestId('domain-card')).toContainText('DNS Verification Required');

  await page.getByRole('button', { name: 'Scans' }).click();
  await page.getByRole('button', { name: 'Run First Scan' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Scan' });
  await expect(dialog).toContainText('you have no verified domain yet');
  await expect(dialog.getByRole('radio')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Start Scan' })).toHaveCount(0);
  expect(await blockingViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Go to Domains' }).click();
  await expect(page.getByRole('heading', { name: 'Domain Management' })).toBeVisible();

  // 'Export All' downloads the server's export as one JSON file.
  await page.getByRole('button', { name: 'Scans' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export All' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^danglewatch-scans-\d{4}-\d{2}-\d{2}\.json$/);
  const body = JSON.parse(
    await (await file.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()),
  );
  expect(body.scans).toEqual([]);
  expect(typeof body.exportedAt).toBe('string');
});

test('domains: the degraded and down banners follow GET /scan/health; down disables adding', async ({
  page,
  context,
}) => {
  // The real endpoint answers healthy here; the other two states are played by a stand-in answer.
  let answer = {
    status: 200,
    body: { status: 'degraded', checks: { database: true, queue: true, worker: false } },
  };
  await page.route('**/scan/health', (route) =>
    route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      body: JSON.stringify(answer.body),
    }),
  );
  await signInToDashboard(page, context, 'Hal Health');
  await expect(page.getByTestId('health-indicator')).toHaveAttribute('data-status', 'degraded');
  await expect(page.getByText('The scanning service is degraded.')).toBeVisible();
  await expect(page.getByText('Not answering: the scan worker.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Your First Domain' })).toBeEnabled();
  expect(await blockingViolations(page)).toEqual([]);

  answer = {
    status: 503,
    body: { status: 'down', checks: { database: false, queue: false, worker: false } },
  };
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(page.getByTestId('health-indicator')).toHaveAttribute('data-status', 'down');
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'Domain scanning service is currently unavailable' });
  await expect(banner).toContainText('Not answering: the database, the job queue, the scan worker.');
  await expect(page.getByRole('button', { name: 'Add Domain', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add Your First Domain' })).toBeDisabled();

  // Retry asks again at once; the service is back.
  answer = {
    status: 200,
    body: { status: 'healthy', checks: { database: true, queue: true, worker: true } },
  };
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('health-indicator')).toHaveAttribute('data-status', 'healthy');
  await expect(page.getByRole('button', { name: 'Add Domain', exact: true })).toBeEnabled();
});

test("domains and scans: a failed load says 'Failed to load dashboard data' and Try Again reads again", async ({
  page,
  context,
}) => {
  let failing = true;
  const fail = (route: Route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":"boom","code":"INTERNAL"}',
        })
      : route.fallback();
  await page.route('**/api/domains', fail);
  await page.route('**/scan/api/v1/scans?*', fail);
  await signInToDashboard(page, context, 'Fay Failure', 'scans');
  // GETs are retried three times with backoff (1 s, 2 s, 4 s) before the error shows.
  const scansError = page.getByRole('alert').filter({ hasText: 'Failed to load dashboard data' });
  await expect(scansError).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'No scans yet' })).toHaveCount(0);
  failing = false;
  await scansError.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { name: 'No scans yet' })).toBeVisible();

  failing = true;
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  const domainsError = page.getByRole('alert').filter({ hasText: 'Failed to load dashboard data' });
  await expect(domainsError).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toHaveCount(0);
  failing = false;
  await domainsError.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
  await expect(domainsError).toHaveCount(0);
});
