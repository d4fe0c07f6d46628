import { expect, test } from '@playwright/test';
import { fixtureURL } from '../../playwright.config.ts';
import { addVerifiedDomain, publishDns, signInToDashboard } from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 120_000 });

test("webhooks in settings: add, 'Send test' arrives signed, the delivery log says delivered, remove", async ({
  page,
  context,
}) => {
  await signInToDashboard(page, context, 'Wendy Webhooks');
  await page.goto('/dashboard?section=settings&tab=alerts');
  const panel = page.getByTestId('webhooks-panel');
  await expect(panel.getByText('No webhooks yet.')).toBeVisible();

  // (Private and metadata addresses are refused in the API tests; this server allows loopback fixtures.)
  await panel.getByLabel('Webhook URL').fill('ftp://files.example.net/hook');
  await panel.getByRole('button', { name: 'Add Webhook' }).click();
  await expect(panel.getByRole('alert')).toContainText('Webhook URLs must use https://');

  // A receiver that answers 404: 'Send test' says the test did not arrive, and why.
  await panel.getByLabel('Webhook URL').fill(`${fixtureURL}/no-such-hook`);
  await panel.getByRole('button', { name: 'Add Webhook' }).click();
  const missing = panel.getByTestId('webhook').filter({ hasText: '/no-such-hook' });
  await missing.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test Not Delivered' })).toContainText(
    'the endpoint answered HTTP 404',
    { timeout: 40_000 },
  );
  await missing.getByRole('button', { name: 'Remove' }).click();
  await expect(panel.getByText('No webhooks yet.')).toBeVisible();

  const url = `${fixtureURL}/hook`;
  await panel.getByLabel('Webhook URL').fill(url);
  await panel.getByRole('button', { name: 'Add Webhook' }).click();
  const hook = panel.getByTestId('webhook');
  await expect(hook).toContainText(url);
  await expect(hook.locator('code')).toContainText(/^whsec_/);

  await hook.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test Delivered' })).toContainText(
    'which answered HTTP 200',
    { timeout: 40_000 },
  );
  // The worker delivers within seconds; the log shows it after a refresh.
  await expect(async () => {
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect(panel.getByTestId('delivery-log')).toContainText('delivered (1 attempt)', {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  const received = (await (await fetch(`${fixtureURL}/hooks`)).json()) as {
    headers: Record<string, string>;
    body: { event: string };
  }[];
  const test_ = received.find((r) => r.body.event === 'test');
  expect(test_?.headers['x-danglewatch-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

  await hook.getByRole('button', { name: 'Remove' }).click();
  await expect(panel.getByText('No webhooks yet.')).toBeVisible();
});

test("the form offers Teams and Discord; a Teams webhook's 'Send test' posts an Adaptive Card", async ({
  page,
  context,
}) => {
  await signInToDashboard(page, context, 'Tess Teams');
  await page.goto('/dashboard?section=settings&tab=alerts');
  const panel = page.getByTestId('webhooks-panel');
  const format = panel.getByLabel('Format');
  await expect(format.locator('option')).toHaveText(['JSON', 'Slack', 'Microsoft Teams', 'Discord']);
  await panel.getByLabel('Webhook URL').fill(`${fixtureURL}/hook`);
  await format.selectOption({ label: 'Microsoft Teams' });
  await panel.getByRole('button', { name: 'Add Webhook' }).click();
  const hook = panel.getByTestId('webhook');
  await expect(hook).toContainText('Microsoft Teams · added');
  await hook.getByRole('button', { name: 'Send test' }).click();
  await expect(async () => {
    const received = (await (await fetch(`${fixtureURL}/hooks`)).json()) as {
      body: { type?: string; attachments?: { contentType: string; content: { body: { text: string }[] } }[] };
    }[];
    const card = received.find((r) => r.body.type === 'message')?.body.attachments?.[0];
    expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card?.content.body.map((b) => b.text)).toContain('DangleWatch test delivery: this webhook works.');
  }).toPass({ timeout: 30_000 });
  await hook.getByRole('button', { name: 'Remove' }).click();
  await expect(panel.getByText('No webhooks yet.')).toBeVisible();
});

test('a scan that finds a new dangling record posts it to the webhook within seconds', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `hooked-${stamp}.dev`;
  await publishDns(`staging.${domain}`, 'CNAME', `dw-${stamp}-gone.azurewebsites.net`);
  await signInToDashboard(page, context, { email: `wes.${stamp}@${domain}`, name: 'Wes Webhook' });
  await page.goto('/dashboard?section=settings&tab=alerts');
  const panel = page.getByTestId('webhooks-panel');
  await panel.getByLabel('Webhook URL').fill(`${fixtureURL}/hook`);
  await panel.getByRole('button', { name: 'Add Webhook' }).click();
  await expect(panel.getByTestId('webhook')).toHaveCount(1);

  await page.goto('/dashboard?section=domains');
  await addVerifiedDomain(page, domain);
  // Verifying starts the first scan; its changes reach the webhook once it completes.
  let scanUrl = '';
  await expect(async () => {
    const received = (await (await fetch(`${fixtureURL}/hooks`)).json()) as {
      body: { event: string; domain?: string; scanUrl?: string; new?: { subdomain: string }[] };
    }[];
    const changes = received.find((r) => r.body.event === 'scan.changes' && r.body.domain === domain);
    expect(changes?.body.new?.map((f) => f.subdomain)).toContain(`staging.${domain}`);
    scanUrl = String(changes?.body.scanUrl);
  }).toPass({ timeout: 60_000 });

  // The link in the alert opens that scan's details.
  await page.goto(new URL(scanUrl).pathname + new URL(scanUrl).search);
  await expect(page.getByRole('dialog', { name: `Scan details: ${domain}` })).toBeVisible();
});
