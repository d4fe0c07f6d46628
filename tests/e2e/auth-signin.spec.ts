import { expect, test } from '@playwright/test';
import {
  hydrated,
  loginSettled,
  newAccount,
  prepareSignIn,
  signInThroughPopup,
} from '../helpers/emulator-e2e.ts';

test.beforeEach(async ({ context }) => {
  await prepareSignIn(context);
});

test("regression: a blocked Google script says to disable the blocker, not 'auth/internal-error'", async ({
  page,
}) => {
  // As a content blocker does: the script request fails.
  await page.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) => route.abort('blockedbyclient'));
  await page.goto('/login');
  await hydrated(page);
  await loginSettled(page);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Disable the blocker for this site');
  await expect(alert).not.toContainText('auth/internal-error');
});

test('Google: the protected redirect, sign-in, return to the requested path, menu, sign-out', async ({
  page,
}) => {
  await page.goto('/dashboard?section=domains');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard%3Fsection%3Ddomains$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Welcome to DangleWatch' })).toBeVisible();
  await expect(page.getByText('Checking authentication configuration...')).toHaveCount(0);

  const account = newAccount('Ann Lee');
  await signInThroughPopup(page, 'Continue with Google', account);

  await expect(page).toHaveURL(/\/dashboard\?section=domains$/);
  await expect(page.getByRole('heading', { name: 'Domain Management' })).toBeVisible();
  const sidebar = page.getByTestId('sidebar-user');
  await expect(sidebar).toContainText('Ann Lee');
  await expect(sidebar).toContainText(account.email);
  await expect(sidebar).toContainText('Google account');

  const header = page.getByTestId('header-auth');
  await expect(header.getByText('Welcome back!')).toBeVisible();
  await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(header.getByTestId('avatar-initials')).toHaveText('AL');

  await header.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu', { name: 'Account' }).first();
  await expect(menu).toContainText('Ann Lee');
  await expect(menu).toContainText(account.email);
  await expect(menu.getByTestId('tier-badge')).toHaveText('Free');
  await expect(menu.getByTestId('tier-badge')).toHaveClass(/green/);
  await expect(menu.getByTestId('scans-remaining')).toHaveText('1/1');
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute(
    'href',
    '/dashboard?section=settings&tab=profile',
  );
  // The account's own plan, that of its personal workspace (whose id is the uid).
  const uid = await page.evaluate(
    () => JSON.parse(localStorage.getItem('danglewatch:session') ?? '{}').user?.uid,
  );
  expect(uid).toEqual(expect.any(String));
  await expect(menu.getByRole('menuitem', { name: 'Upgrade to Pro' })).toHaveAttribute(
    'href',
    `/dashboard?section=settings&tab=plan&workspace=${uid}`,
  );

  // Pages without islands show the signed-in state too, through the header's inline script.
  await page.goto('/privacy-policy');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' }).first()).toHaveAttribute('href', '/dashboard');
  await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

  // /login forwards a signed-in user to the path asked for, and never off this origin.
  await page.goto('/login?from=%2Fpricing');
  await expect(page).toHaveURL(/\/pricing$/);
  await page.goto('/login?from=/%09/evil.example');
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
  await page.goto('/auth/signin?from=/%5C/evil.example');
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);

  await page.goto('/dashboard?section=settings');
  await expect(page.getByRole('heading', { name: 'Your DangleWatch Account' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
  await expect(page.getByTestId('header-auth')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('danglewatch:session'))).toBeNull();

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
});

test('GitHub: sign-in from /login lands on the dashboard shell; public pages show it without Firebase', async ({
  page,
}) => {
  await page.goto('/login');
  await hydrated(page);
  const account = newAccount('octocat');
  await signInThroughPopup(page, 'Continue with GitHub', account);

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Security Scans' })).toBeVisible();
  await expect(page.getByText('No scans yet')).toBeVisible();
  await expect(page.getByTestId('sidebar-user')).toContainText('GitHub account');
  await page.getByRole('button', { name: 'Domains' }).click();
  await expect(page.getByRole('heading', { name: 'Domain Management' })).toBeVisible();
  await expect(page).toHaveURL(/section=domains/);
  // Where checkout returns: the settings section, plan tab.
  await page.goto('/dashboard/settings?tab=billing');
  await expect(page.getByRole('heading', { name: 'Your DangleWatch Account' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Plan' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('current-plan')).toContainText('Free');

  // A public page: the header shows the cached session and loads no Firebase code until asked.
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/pricing');
  await hydrated(page);
  const header = page.getByTestId('header-auth');
  await expect(header.getByText('Welcome back!')).toBeVisible();
  await expect(header.getByTestId('avatar-initials')).toHaveText('O');
  expect(scripts.filter((url) => url.includes('firebase'))).toEqual([]);

  await header.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByTestId('scans-remaining').first()).toHaveText('1/1');
  await page.getByRole('menuitem', { name: 'Sign out' }).first().click();
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('a closed popup shows the cancellation message and enables the buttons again', async ({ page }) => {
  test.setTimeout(45_000);
  await page.goto('/login');
  await hydrated(page);
  await loginSettled(page);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toBeDisabled();
  const popup = await popupOpened;
  await popup.close();
  await expect(page.getByRole('alert')).toHaveText('Sign-in was cancelled. Please try again.', {
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toBeEnabled();
});

test('the mobile menu shows the signed-in state', async ({ page }) => {
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', newAccount('Mo Bile'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await hydrated(page);
  await page.getByText('Menu', { exact: true }).click();
  const mobile = page.getByTestId('header-auth-mobile');
  await expect(mobile.getByText('Welcome back!')).toBeVisible();
  await expect(mobile.getByTestId('avatar-initials')).toHaveText('MB');
  await expect(mobile.getByRole('menuitem', { name: 'Upgrade to Pro' })).toBeVisible();
  await mobile.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByTestId('header-auth-mobile')).toHaveCount(0);
});

test('an expired session (server says SESSION_EXPIRED) signs out with a clear message', async ({ page }) => {
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', newAccount('Tim Out'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.route('**/auth/user', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Authentication required', code: 'SESSION_EXPIRED', statusCode: 401 }),
    }),
  );
  await page.reload();
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
  await hydrated(page);
  await expect(page.getByText('Your session expired after 24 hours. Please sign in again.')).toBeVisible();
});

test('a token the server rejects signs out once and settles on /login, without a redirect loop', async ({
  page,
}) => {
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with GitHub', newAccount('Gone User'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.route('**/auth/user', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Authentication required', code: 'INVALID_TOKEN', statusCode: 401 }),
    }),
  );
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await hydrated(page);
  await expect(page.getByText('Your session is no longer valid. Please sign in again.')).toBeVisible();
  // Stays put: signed out, so nothing asks the server again.
  await page.waitForTimeout(3000);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
});

test('signing out in one tab updates the header in another', async ({ page, context }) => {
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', newAccount('Two Tabs'));
  await expect(page).toHaveURL(/\/dashboard$/);
  const other = await context.newPage();
  await other.goto('/pricing');
  await hydrated(other);
  await expect(other.getByTestId('header-auth').getByText('Welcome back!')).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(other.getByTestId('header-auth')).toHaveCount(0);
  await expect(
    other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' }),
  ).toBeVisible();
});

test('the token is refreshed 5 minutes before expiry, not earlier', async ({ page }) => {
  await page.clock.install();
  await page.goto('/login');
  await hydrated(page);
  // The dashboard's own Firebase start-up asks for the profile: only then is the refresher running.
  const dashboardReady = page.waitForResponse(
    (response) => response.url().endsWith('/auth/user') && response.ok(),
  );
  await signInThroughPopup(page, 'Continue with Google', newAccount('Fresh Token'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await dashboardReady;
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('securetoken.googleapis.com/v1/token')) refreshes.push(request.url());
  });
  // The token lives an hour.
  await page.clock.fastForward('54:00');
  await page.waitForTimeout(500);
  expect(refreshes).toHaveLength(0);
  await page.clock.fastForward('01:30');
  await expect.poll(() => refreshes.length).toBe(1);
  await page.waitForTimeout(500);
  expect(refreshes).toHaveLength(1);
});

test('24 hours after sign-in the browser signs out with a clear message', async ({ page }) => {
  await page.clock.install();
  await page.goto('/login');
  await hydrated(page);
  const dashboardReady = page.waitForResponse(
    (response) => response.url().endsWith('/auth/user') && response.ok(),
  );
  await signInThroughPopup(page, 'Continue with Google', newAccount('Day Long'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await dashboardReady;
  // Refreshes are kept from succeeding: a token issued by the emulator, whose clock does not
  // jump, would (rightly) teach the page that it is the page's clock that ran ahead.
  await page.route('**/securetoken.googleapis.com/v1/token**', (route) =>
    route.abort('internetdisconnected'),
  );
  await page.clock.fastForward('23:58:00');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.clock.fastForward('03:00');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
  await hydrated(page);
  await expect(page.getByText('Your session expired after 24 hours. Please sign in again.')).toBeVisible();
});

test('a refresh that fails on the network backs off 30 s, then 60 s, then 120 s', async ({ page }) => {
  await page.clock.install();
  await page.goto('/login');
  await hydrated(page);
  const dashboardReady = page.waitForResponse(
    (response) => response.url().endsWith('/auth/user') && response.ok(),
  );
  await signInThroughPopup(page, 'Continue with GitHub', newAccount('Flaky Net'));
  await expect(page).toHaveURL(/\/dashboard$/);
  await dashboardReady;
  let attempts = 0;
  await page.route('**/securetoken.googleapis.com/v1/token**', (route) => {
    attempts += 1;
    return route.abort('internetdisconnected');
  });
  await page.clock.fastForward('55:30');
  await expect.poll(() => attempts).toBe(1);
  for (const [wait, expected] of [
    ['00:29', 1],
    ['00:02', 2],
    ['00:58', 2],
    ['00:02', 3],
    ['01:58', 3],
    ['00:02', 4],
  ] as const) {
    await page.clock.fastForward(wait);
    await page.waitForTimeout(300);
    await expect.poll(() => attempts).toBe(expected);
  }
  // Still signed in: a network failure is not a reason to end the session.
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the avatar shows the account photo when there is one', async ({ page, context }) => {
  const photoURL = 'https://lh3.googleusercontent.com/a/dw-test-photo.png';
  // A 1×1 PNG stands in for the provider's photo host.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await context.route(photoURL, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: png }),
  );
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', { ...newAccount('Pic Ture'), photoURL });
  await expect(page).toHaveURL(/\/dashboard$/);
  const header = page.getByTestId('header-auth');
  await expect(header.locator(`img[src="${photoURL}"]`)).toBeVisible();
  await expect(header.getByTestId('avatar-initials')).toHaveCount(0);
});

test('regression: when the profile cannot be loaded, the menu says so and retries, never shows invented figures', async ({
  page,
}) => {
  // It waits out the request layer's retries before the profile may load again.
  test.setTimeout(120_000);
  let failing = true;
  let lastAsked = Date.now();
  await page.route(/\/auth\/(user|verify)$/, (route) => {
    lastAsked = Date.now();
    return failing
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' })
      : route.fallback();
  });
  await page.goto('/login');
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', newAccount('Flaky Server'));
  await expect(page).toHaveURL(/\/dashboard$/);

  const header = page.getByTestId('header-auth');
  await header.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu', { name: 'Account' }).first();
  await expect(menu.getByTestId('profile-unavailable')).toContainText(
    'Your plan and scan quota could not be loaded.',
  );
  await expect(menu.getByTestId('scans-remaining')).toHaveCount(0);
  await expect(menu.getByTestId('tier-badge')).toHaveCount(0);
  const cached = await page.evaluate(() => JSON.parse(localStorage.getItem('danglewatch:session') ?? '{}'));
  expect(cached.profile).toBeNull();

  // Every load already on its way (the request layer retries a GET 3 times, 1 + 2 + 4 s apart) has
  // given up: the profile can now only come back through Retry.
  await expect.poll(() => Date.now() - lastAsked, { timeout: 30_000 }).toBeGreaterThan(8_000);
  failing = false;
  await menu.getByRole('button', { name: 'Retry' }).click();
  await expect(menu.getByTestId('scans-remaining')).toHaveText('1/1');
  await expect(menu.getByTestId('profile-unavailable')).toHaveCount(0);
});
