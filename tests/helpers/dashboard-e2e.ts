import { type BrowserContext, expect, type Page } from '@playwright/test';
import { fixtureURL } from '../../playwright.config.ts';
import type { ZoneRecord } from '../../src/scanner/zone/record.ts';
import { blockingViolations as violationsOutside } from './axe.ts';
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
 * `within` narrows the check to a part of a page already checked whole (tests/helpers/axe.ts).
 */
export function blockingViolations(page: Page, within?: string): Promise<string[]> {
  return violationsOutside(page, { exclude: '[data-testid="header-auth"]', within });
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

/**
 * Creates a zone at the e2e server's Cloudflare fake (`active` unless a status is given); answers
 * the read-only token that reads it and the name servers Cloudflare assigned to it.
 */
export async function cloudflareZone(
  zone: string,
  records: ZoneRecord[],
  status?: string,
): Promise<{ token: string; nameServers: string[] }> {
  const answer = (await (await control('/cloudflare/zone', { zone, records, status })).json()) as {
    token: string;
    nameServers: string[];
  };
  return answer;
}

/** Adds a record to a zone at the Cloudflare fake, as the user would in Cloudflare's dashboard. */
export async function cloudflareRecord(zone: string, record: ZoneRecord): Promise<void> {
  await control('/cloudflare/record', { zone, record });
}

/** Cloudflare's word on the zone's status (`active` once it sees the delegation). */
export async function cloudflareStatus(zone: string, status: string): Promise<void> {
  await control('/cloudflare/status', { zone, status });
}

/** The Cloudflare token is revoked: the next read of the zone is refused as Cloudflare does. */
export async function cloudflareRevoke(zone: string): Promise<void> {
  await control('/cloudflare/revoke', { zone });
}

/** Public DNS delegates the zone to these name servers. */
export async function delegate(zone: string, nameServers: string[]): Promise<void> {
  for (const ns of nameServers) await publishDns(zone, 'NS', ns);
}

/** Opens Settings → DNS through the dashboard's own navigation. */
export async function openDnsSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'DNS' }).click();
  await expect(page.getByTestId('dns-connections-panel')).toBeVisible();
}

/**
 * Connects the e2e Cloudflare account with `token` in Settings → DNS and monitors `zone` from its
 * card, as a user does: the zone's first scan starts once public DNS delegates it there.
 */
export async function connectCloudflareAndMonitor(page: Page, token: string, zone: string): Promise<void> {
  await openDnsSettings(page);
  const form = page.getByRole('form', { name: 'Connect a DNS provider' });
  await form.getByLabel('API token').fill(token);
  await form.getByRole('button', { name: 'Connect Cloudflare' }).click();
  await page
    .getByTestId('dns-connection')
    .getByRole('button', { name: `Monitor ${zone}` })
    .click();
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

/** What the providers' availability APIs answer about a name from now on ('taken', 'free', a fault). */
export async function providerAnswer(name: string, answer: 'free' | 'taken' | '500'): Promise<void> {
  await control('/provider-name', { name, answer });
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

/** The e2e AWS account allocates an Elastic IP; answers the read-only key that reads the account. */
export async function awsHold(
  ip: string,
  allocationId: string,
): Promise<{ accessKeyId: string; secretAccessKey: string }> {
  return (await (await control('/aws/hold', { ip, allocationId })).json()) as {
    accessKeyId: string;
    secretAccessKey: string;
  };
}

/** The e2e AWS account releases the Elastic IP: AWS may hand it to anyone now. */
export async function awsRelease(ip: string): Promise<void> {
  await control('/aws/release', { ip });
}

/**
 * Moves the clock of the job that ends accepted risks to `at`: it ends those due by then and mails
 * each one's alert. Answers how many ended.
 */
export async function moveAcceptanceClock(at: Date): Promise<number> {
  return ((await (await control('/clock', { at: at.toISOString() })).json()) as { ended: number }).ended;
}

/** The subjects of the e-mails the server sent to `email`, oldest first. */
export async function mailSubjects(email: string): Promise<string[]> {
  return ((await (await control('/mail-subjects', { email })).json()) as { subjects: string[] }).subjects;
}

/** The alerts PagerDuty's stand-in holds, by dedup key. */
export async function pagerDutyAlerts(): Promise<Record<string, { status: string; triggers: number }>> {
  return (await fetch(`${fixtureURL}/pagerduty`)).json() as Promise<
    Record<string, { status: string; triggers: number }>
  >;
}

/** The routing key PagerDuty's stand-in accepts. */
export const E2E_PAGERDUTY_KEY = 'e2epagerdutyroutingkey0000000001';

/** The API key Linear's stand-in accepts; it sees one team, Security (key SEC). */
export const E2E_LINEAR_KEY = 'lin_api_e2e_key';

/** Linear refuses the next issue it is asked to create, as a delivery to a team it does not know meets. */
export async function linearRefusesNextIssue(): Promise<void> {
  await control('/linear/refuse-create', {});
}
