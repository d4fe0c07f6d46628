import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { fixtureURL } from '../../playwright.config.ts';
import { hydrated, newAccount, prepareSignIn, signInThroughPopup, type TestAccount } from './emulator-e2e.ts';

/**
 * Signs a new Google account in through the emulator's popup and lands on a dashboard section.
 * Accounts are @example.com, so the free tier's company domain is example.com.
 */
export async function signInToDashboard(
  page: Page,
  context: BrowserContext,
  who: string | TestAccount,
  section: 'scans' | 'domains' = 'domains',
): Promise<TestAccount> {
  await prepareSignIn(context);
  await page.goto(section === 'scans' ? '/dashboard' : `/dashboard?section=${section}`);
  // The dashboard sends a visitor to /login; only the login page's hydrated buttons take the click.
  await expect(page).toHaveURL(/\/login\?from=/);
  await hydrated(page);
  const account = typeof who === 'string' ? newAccount(who) : who;
  await signInThroughPopup(page, 'Continue with Google', account);
  await expect(
    page.getByRole('heading', { name: section === 'scans' ? 'Security Scans' : 'Domain Management' }),
  ).toBeVisible({
    timeout: 15_000,
  });
  return account;
}

/**
 * Serious or critical axe violations (WCAG 2.1 A/AA and best practice) of the dashboard, as readable
 * lines. The site header's account menu is left to the auth a11y spec: its initials button (aria-label
 * 'Account menu', text 'DD') trips label-content-name-mismatch for some names, which is not this screen's.
 */
export async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .exclude('[data-testid="header-auth"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function control(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${fixtureURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`fixture control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

/** Publishes a record at the e2e server's DNS fixture, as a user would at their DNS host. */
export async function publishDns(
  name: string,
  type: 'TXT' | 'CNAME' | 'A' | 'NS',
  data: string,
): Promise<void> {
  await control('/dns', { name, type, data });
}

/** Puts names in the certificate-transparency fixture's answer for a domain. */
export async function publishCt(domain: string, names: string[]): Promise<void> {
  await control('/ct', { domain, names });
}

/** Grants a plan to the account's personal workspace, as `danglewatch users set-plan` does. */
export async function grantPlan(email: string, plan: string): Promise<void> {
  await control('/plan', { email, plan });
}

/** The link of the newest invitation e-mail to `email`, from the server's outbox. */
export async function invitationLink(email: string): Promise<string> {
  const { link } = (await (await control('/invitation-link', { email })).json()) as { link: string };
  return link;
}

/** Has Stripe report a failed renewal payment for the account's subscription. */
export async function failPayment(email: string): Promise<void> {
  await control('/stripe/payment-failed', { email });
}

/** Stores `count` completed scans of `domain` for the account, as months of monitoring would. */
export async function seedScans(email: string, domain: string, count: number): Promise<void> {
  await control('/scans', { email, domain, count });
}

/** Adds the domain suggested from the signed-in user's e-mail and proves it, on the Domains screen. */
export async function addVerifiedDomain(page: Page, domain: string): Promise<void> {
  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  await page.getByRole('button', { name: 'Use This' }).click();
  await page.getByRole('button', { name: 'Configure Scanning' }).click();
  await page
    .getByRole('dialog', { name: 'Scan Configuration' })
    .getByRole('button', { name: 'Add Domain' })
    .click();
  const verify = page.getByRole('dialog', { name: 'Domain Added - Verification Required' });
  await publishDns(domain, 'TXT', (await verify.getByTestId('txt-value').textContent()) ?? '');
  await verify.getByRole('button', { name: 'Done, Start Monitoring' }).click();
  await expect(verify).toHaveCount(0);
}
