import { expect, test } from '@playwright/test';
import { hydrated } from '../helpers/emulator-e2e.ts';

test.describe('the login page configuration banner', () => {
  test('shows the check while the configuration loads', async ({ page }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/auth/config', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await hydrated(page);
    await expect(page.getByText('Checking authentication configuration...')).toBeVisible();
    release();
    await expect(page.getByText('Checking authentication configuration...')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  test("says setup is in progress when the server's sign-in is not configured", async ({ page }) => {
    await page.route('**/auth/config', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'Sign-in is not configured on this server',
          code: 'AUTH_NOT_CONFIGURED',
        }),
      }),
    );
    await page.goto('/login');
    await expect(page.getByText('Authentication Setup in Progress')).toBeVisible();
    await expect(page.getByText(/5-10 minutes/)).toBeVisible();
  });

  test('reports a configuration issue with its error text', async ({ page }) => {
    await page.route('**/auth/config', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          firebase: {
            apiKey: 'bad key!',
            projectId: 'demo-x',
            messagingSenderId: '1',
            appId: '1:1:web:ab',
            authDomain: 'demo-x.firebaseapp.com',
          },
        }),
      }),
    );
    await page.goto('/login');
    await expect(page.getByText('Authentication Configuration Issue')).toBeVisible();
    await expect(page.getByText('Invalid Firebase API key format')).toBeVisible();
  });

  test('has the divider, the free-tier box, the 24-hour note and the legal links', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText('Secure OAuth Only')).toBeVisible();
    await expect(page.getByText('1 scan per day')).toBeVisible();
    await expect(page.getByText(/expire 24 hours after you sign in/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Terms of Service' }).last()).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    await expect(page.getByRole('link', { name: 'Privacy Policy' }).last()).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
  });
});

test.describe('/auth/callback messages its opener, then closes', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    [
      'an error with a description',
      '?error=access_denied&error_description=User%20said%20no',
      {
        type: 'OAUTH_ERROR',
        error: 'User said no',
      },
    ],
    ['an error alone', '?error=access_denied', { type: 'OAUTH_ERROR', error: 'access_denied' }],
    ['no code', '?state=google-1', { type: 'OAUTH_ERROR', error: 'No authorization code received' }],
    [
      'a Google code',
      '?code=abc&state=google-1',
      {
        type: 'OAUTH_SUCCESS',
        code: 'abc',
        state: 'google-1',
        userInfo: { provider: 'google' },
      },
    ],
    [
      'a GitHub code',
      '?code=xyz&state=github-2',
      {
        type: 'OAUTH_SUCCESS',
        code: 'xyz',
        state: 'github-2',
        userInfo: { provider: 'github' },
      },
    ],
  ];
  for (const [name, query, expected] of cases) {
    test(name, async ({ page }) => {
      await page.goto('/404');
      const popupClosed = page.waitForEvent('popup').then((popup) => popup.waitForEvent('close'));
      const message = await page.evaluate(
        (url) =>
          new Promise((resolve) => {
            window.addEventListener('message', (event) => resolve(event.data), { once: true });
            window.open(url, 'oauth', 'width=500,height=600');
          }),
        `/auth/callback${query}`,
      );
      expect(message).toEqual(expected);
      await popupClosed;
    });
  }

  test('shows the waiting text', async ({ page }) => {
    await page.goto('/auth/callback?code=abc');
    await expect(page.getByText('Completing authentication...')).toBeVisible();
  });
});

test('/auth/signin lands on /login, keeping the query', async ({ page }) => {
  await page.goto('/auth/signin?from=%2Fdashboard');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
});

test('signed out, the header offers Sign In and the dashboard says authentication is required', async ({
  page,
}) => {
  for (const path of ['/', '/login']) {
    await page.goto(path);
    await hydrated(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
    // Hydration replaced the server's placeholder rather than adding to it.
    await expect(page.getByRole('button', { name: 'Loading...' })).toHaveCount(0);
  }
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
});

test('a cached session older than 24 hours is dropped by the header', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() =>
    localStorage.setItem(
      'danglewatch:session',
      JSON.stringify({
        user: {
          uid: 'u1',
          email: 'old@example.com',
          displayName: 'Old Timer',
          photoURL: null,
          provider: 'google',
        },
        profile: {
          displayName: 'Old Timer',
          email: 'old@example.com',
          tier: 'free',
          provider: 'google',
          scanQuota: { daily: 1, used: 0, remaining: 1 },
        },
        authTime: Date.now() - 25 * 60 * 60 * 1000,
      }),
    ),
  );
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('danglewatch:session'))).toBeNull();
});
