import { expect, test } from '@playwright/test';

test('an island that throws shows the fallback message and leaves the page usable', async ({ page }) => {
  // Break the store hook the Toaster island (and the header's sign-in island) render with: its first
  // function now throws on call.
  await page.route('**/_astro/use-store.*.js', async (route) => {
    const original = await route.fetch();
    const body = (await original.text()).replace(
      /function (\w+)\(([^)]*)\)\{/,
      'function $1($2){throw new Error("island test failure");',
    );
    expect(body).toContain('island test failure');
    await route.fulfill({ response: original, body });
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/trust-security');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Something went wrong. Please refresh the page and try again.',
  );
  expect(errors.some((e) => e.includes('Island crashed'))).toBe(true);
  // The rest of the page, the other island included, still works.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Built to be trusted with your weak spots',
  );
  const form = page.locator('form').filter({ has: page.getByLabel('Email address') });
  await form.scrollIntoViewIfNeeded();
  await expect(form.getByRole('button', { name: 'Get Started' })).toBeEnabled();
});
