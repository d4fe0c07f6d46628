import { type BrowserContext, expect, type Page } from '@playwright/test';
import { GAPI_STUB } from './emulator-gapi.ts';

/**
 * Makes the popup sign-in work offline: Google's api.js is replaced by the stand-in, and the
 * emulator widget's CDN styles and fonts fail fast instead of hanging.
 */
export async function prepareSignIn(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: GAPI_STUB }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) =>
    route.abort(),
  );
}

/** The page's eager islands (header, login, dashboard) are interactive once Astro has hydrated them. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  await expect(page.locator('astro-island[ssr]:is([client="load"], [client="idle"])')).toHaveCount(0, {
    timeout: 15_000,
  });
}

/**
 * The configuration banner leaves the login page once the check ends and the buttons move up: a
 * click aimed while it is still there can land where a button was and open nothing.
 */
export async function loginSettled(page: Page): Promise<void> {
  await expect(page.getByText('Checking authentication configuration...')).toHaveCount(0, {
    timeout: 15_000,
  });
}

export interface TestAccount {
  email: string;
  name: string;
  photoURL?: string;
}

let counter = 0;
export function newAccount(name: string): TestAccount {
  const slug = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${++counter}`;
  return { email: `${slug}@example.com`, name };
}

/** Clicks a 'Continue with …' button and completes the emulator's popup as a new account. */
export async function signInThroughPopup(
  page: Page,
  button: 'Continue with Google' | 'Continue with GitHub',
  account: TestAccount,
): Promise<void> {
  await loginSettled(page);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: button }).click();
  const popup = await popupOpened;
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByText('Add new account').click();
  await popup.locator('#email-input').fill(account.email);
  await popup.locator('#display-name-input').fill(account.name);
  if (account.photoURL) await popup.locator('#profile-photo-input').fill(account.photoURL);
  await popup.locator('#sign-in').click();
  // The emulator's first sign-ins after a cold start can take well over 15 s on a loaded 2-core CI machine.
  await popup.waitForEvent('close', { timeout: 40_000 });
}
