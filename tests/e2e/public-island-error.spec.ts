import { expect, test } from '@playwright/test';

test('an island that throws shows the fallback message and leaves the page usable', async ({ page }) => {
  // A visitor with a session, so the header's account island hydrates; break it from inside its
  // error boundary: the function that renders the account area now throws on call.
  await page.addInitScript(() =>
    localStorage.setItem(
      'danglewatch:session',
      JSON.stringify({
        user: { uid: 'u1', email: 'ann@example.com', displayName: 'Ann', photoURL: null, provider: 'google' },
        profile: null,
        authTime: Date.now(),
      }),
    ),
  );
  await page.route('**/_astro/HeaderAuth.*.js', async (route) => {
    const original = await route.fetch();
    const text = await original.text();
    const at = text.lastIndexOf('function ', text.indexOf('`Sign In`'));
    const open = text.indexOf('){', at) + 2;
    const body = `${text.slice(0, open)}throw new Error("island test failure");${text.slice(open)}`;
    expect(at).toBeGreaterThan(-1);
    await route.fulfill({ status: 200, contentType: 'text/javascript', body });
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/trust-security');
  await expect(page.getByRole('banner').getByRole('alert').first()).toHaveText(
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
