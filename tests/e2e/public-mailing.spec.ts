import { expect, type Page, test } from '@playwright/test';

const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Collects the analytics events the default sink dispatches, from before the page's scripts run. */
async function recordAnalytics(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __analytics: unknown[] };
    w.__analytics = [];
    window.addEventListener('danglewatch:analytics', (e) => w.__analytics.push((e as CustomEvent).detail));
  });
}

const analytics = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __analytics: { event: string; props: Record<string, unknown> }[] }).__analytics,
  );

/** Opens a page with the form and waits until the island is hydrated (the button enables then). */
async function openForm(page: Page, path: string) {
  await page.goto(path);
  const form = page.locator('form').filter({ has: page.getByLabel('Email address') });
  await form.scrollIntoViewIfNeeded();
  const button = form.getByRole('button', { name: 'Get Started' });
  await expect(button).toBeEnabled();
  return { form, field: form.getByLabel('Email address'), button };
}

test('a new sign-up on the trust page: toast, field cleared, event sent, row stored', async ({
  page,
  request,
}) => {
  await recordAnalytics(page);
  const { field, button } = await openForm(page, '/trust-security');
  await expect(field).toHaveAttribute('type', 'email');
  await expect(field).toHaveAttribute('required', '');
  const email = uniqueEmail('trust');
  await field.fill(email);
  await button.click();
  const toast = page.getByRole('status');
  await expect(toast.getByText('Thanks for joining!')).toBeVisible();
  await expect(toast.getByText("We'll notify you when the product launches.")).toBeVisible();
  await expect(field).toHaveValue('');
  expect(await analytics(page)).toEqual([
    expect.objectContaining({ event: 'email_signup_success', props: { source: 'trust-security' } }),
  ]);
  // The row is in the database: the same address again is a duplicate.
  const again = await request.post('/mailing-list', {
    data: { email, source: 'e2e', timestamp: new Date().toISOString() },
  });
  expect(again.status()).toBe(409);
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast.getByText('Thanks for joining!')).toBeHidden();
});

test("the button reads 'Getting Started...' while the sign-up is sending", async ({ page }) => {
  const { field, button } = await openForm(page, '/');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/mailing-list', async (route) => {
    await held;
    await route.continue();
  });
  await field.fill(uniqueEmail('home'));
  await button.click();
  const sending = page.getByRole('button', { name: 'Getting Started...' });
  await expect(sending).toBeVisible();
  await expect(sending).toBeDisabled();
  release();
  await expect(page.getByRole('status').getByText('Thanks for joining!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeEnabled();
  await expect(field).toHaveValue('');
});

test('a duplicate sign-up counts as success: field cleared, no toast', async ({ page, request }) => {
  await recordAnalytics(page);
  const email = uniqueEmail('dup');
  const first = await request.post('/mailing-list', { data: { email, source: 'e2e' } });
  expect(first.status()).toBe(201);
  const answers: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/mailing-list')) answers.push(r.status());
  });
  const { field, button } = await openForm(page, '/');
  await field.fill(email.toUpperCase());
  await button.click();
  await expect(field).toHaveValue('');
  expect(answers).toEqual([409]);
  await expect(page.getByRole('status')).toHaveText('');
  expect(await analytics(page)).toEqual([
    expect.objectContaining({ event: 'email_signup_success', props: { source: 'home' } }),
  ]);
});

test('invalid input is stopped before any request', async ({ page }) => {
  await recordAnalytics(page);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/mailing-list')) requests.push(r.method());
  });
  const { field, button } = await openForm(page, '/trust-security');
  // Empty: the browser's required check.
  await button.click();
  expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  // Not an e-mail address: the browser's type=email check.
  await field.fill('not-an-email');
  await button.click();
  expect(await field.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  // The browser accepts it but our pattern (tld of 2+ letters) does not: silent false.
  await field.fill('ada@localhost');
  await button.click();
  await expect(button).toBeEnabled();
  await expect(field).toHaveValue('ada@localhost');
  await expect(page.getByRole('status')).toHaveText('');
  expect(requests).toEqual([]);
  expect(await analytics(page)).toEqual([]);
});

test('a server failure is shown to the user and reported', async ({ page }) => {
  await recordAnalytics(page);
  await page.route('**/mailing-list', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'boom', code: 'INTERNAL', statusCode: 500 }),
    }),
  );
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const { field, button } = await openForm(page, '/trust-security');
  const email = uniqueEmail('fail');
  await field.fill(email);
  await button.click();
  const toast = page.getByRole('status');
  await expect(toast.getByText('Sign-up failed')).toBeVisible();
  await expect(toast.getByText(/couldn't add you to the list/)).toBeVisible();
  await expect(page.getByText('Thanks for joining!')).toHaveCount(0);
  await expect(field).toHaveValue(email);
  await expect(button).toBeEnabled();
  expect(await analytics(page)).toEqual([
    expect.objectContaining({
      event: 'email_signup_error',
      props: { source: 'trust-security', error: 'Failed to subscribe: 500' },
    }),
  ]);
  expect(errors.some((e) => e.includes('Failed to subscribe: 500'))).toBe(true);
});
