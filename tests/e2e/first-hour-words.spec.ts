// The first hour's words: the API with Intro, the Free rule said first, one plan line, the user's
// words, the invitation's sender, every credential held; each screen at 390 and 1280 px with axe,
// each test signing in once and looking at both widths in turn.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { WEBMAIL_ON_FREE_LEADS } from '../../src/model/free-tier.ts';
import { HELD_CREDENTIALS } from '../../src/model/held-credentials.ts';
import {
  blockingViolations,
  E2E_PAGERDUTY_KEY,
  grantPlan,
  invitationLink,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';
import { hydrated, newAccount, prepareSignIn, signInThroughPopup } from '../helpers/emulator-e2e.ts';
import { DESKTOP, WIDTHS } from '../helpers/viewports.ts';

test.describe.configure({ timeout: 240_000 });

/** At each width: `check` holds and axe finds nothing serious, once per width; then back to the laptop's. */
async function atBothWidths(page: Page, check: () => Promise<void>): Promise<void> {
  for (const [label, viewport] of WIDTHS) {
    await page.setViewportSize(viewport);
    await check();
    expect(await blockingViolations(page), `axe at ${label}`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

/** A settings tab, opened by its address (the tab strip is another change's), read to the end. */
async function openTab(page: Page, tab: string, panel: string): Promise<Locator> {
  await page.goto(`/dashboard?section=settings&tab=${tab}`);
  const shown = page.getByTestId(panel);
  await expect(shown).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  return shown;
}

test('a gmail.com user on Free meets the Free rule on the first screens, and reads what each credential held can do', async ({
  page,
  context,
}) => {
  const account = { email: `gail.${Date.now()}@gmail.com`, name: 'Gail Webmail' };
  await prepareSignIn(context);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?from=/);
  await hydrated(page);
  await signInThroughPopup(page, 'Continue with Google', account);
  await expect(page.getByRole('heading', { name: 'Security Scans' })).toBeVisible({ timeout: 15_000 });

  // Point 6: the first screen and the empty Domains screen say the rule first, with the ways on.
  await atBothWidths(page, async () => {
    const first = page.getByTestId('free-rule-scans');
    await expect(first).toContainText(WEBMAIL_ON_FREE_LEADS.scans);
    await expect(first.getByTestId('webmail-notice')).toContainText(`You signed in with ${account.email}`);
    await expect(page.getByRole('button', { name: 'Run First Scan' })).toHaveCount(0);
  });
  await page.goto('/dashboard?section=domains');
  await atBothWidths(page, async () => {
    const empty = page.getByTestId('free-rule-domains');
    await expect(empty).toContainText(WEBMAIL_ON_FREE_LEADS.domains);
    await expect(empty.getByRole('link', { name: 'Upgrade to Intro' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Your First Domain' })).toHaveCount(0);
  });

  // Before a key is handed over: what a cloud account or an integration would be used for.
  const cloud = await openTab(page, 'cloud', 'cloud-accounts-panel');
  await atBothWidths(page, async () => {
    await expect(cloud.getByTestId('free-rule-cloud')).toContainText(WEBMAIL_ON_FREE_LEADS.cloud);
  });
  const integrations = await openTab(page, 'integrations', 'integrations-panel');
  await atBothWidths(page, async () => {
    await expect(integrations.getByTestId('free-rule-integrations')).toContainText(
      WEBMAIL_ON_FREE_LEADS.integrations,
    );
  });

  // Point 5: the API tab names the plan that has the API, one that can be bought.
  const api = await openTab(page, 'api', 'api-plan');
  await atBothWidths(page, async () => {
    await expect(api).toContainText(
      'The public API comes with the Intro plan and above; your Free plan has no API access.',
    );
  });

  // Point 17: every kind of credential held, what it can do, how it is kept and removed.
  await page.goto('/dashboard?section=settings&tab=data');
  const held = page.getByTestId('held-credentials');
  await atBothWidths(page, async () => {
    for (const kind of HELD_CREDENTIALS) {
      const item = held.locator(`[data-kind="${kind.kind}"]`);
      await expect(item).toContainText(kind.can);
      await expect(item).toContainText(kind.removed);
    }
  });
});

test('an owner on a plan without a subscription reads one plan line, gets an API key on Intro, and the invitation link says who asks', async ({
  page,
  context,
  browser,
}) => {
  const owner = await signInToDashboard(page, context, 'Iris Words');

  // Point 8: Intro given by the operator, with no subscription: no price, no badge, nothing to cancel.
  await grantPlan(owner.email, 'intro');
  const plan = await openTab(page, 'plan', 'current-plan');
  await atBothWidths(page, async () => {
    await expect(plan.getByTestId('plan-line')).toHaveText('Intro · no subscription, nothing is charged');
    await expect(plan.getByTestId('subscription-status')).toHaveCount(0);
    await expect(page.getByText('Cancel your subscription')).toHaveCount(0);
    // Point 5: the Plan tab says Intro has the API.
    await expect(page.getByTestId('plans-grid').locator('[data-plan="intro"]')).toContainText(
      '100 calls/hour',
    );
  });

  // Point 5: Intro creates a key, 100 calls an hour.
  await page.goto('/dashboard?section=settings&tab=api');
  await page.getByLabel('Key name').fill('GitHub Actions');
  await page.getByRole('button', { name: 'Create Key' }).click();
  await expect(page.getByTestId('new-api-key').locator('code')).toHaveText(/^dw_[A-Za-z0-9_-]{43}$/);
  await atBothWidths(page, async () => {
    await expect(page.getByText('Your Intro plan allows 100 calls per hour')).toBeVisible();
  });

  // Point 12: a card named after its service is not titled twice.
  const integrations = await openTab(page, 'integrations', 'integrations-panel');
  await integrations.getByLabel('Service').selectOption('pagerduty');
  await integrations.getByLabel('Integration (routing) key').fill(E2E_PAGERDUTY_KEY);
  await integrations.getByRole('button', { name: 'Connect PagerDuty' }).click();
  const card = integrations.getByTestId('integration');
  await atBothWidths(page, async () => {
    await expect(card.getByRole('heading', { level: 3 })).toHaveText('PagerDuty');
  });

  // Point 16: a team on Intro invites a colleague; the link, signed out, says who asks to join what.
  const teamName = `Words ${Date.now()}`.slice(0, 20);
  await page.goto('/dashboard?section=domains');
  await page.setViewportSize(DESKTOP);
  await page.getByRole('button', { name: 'Create team workspace' }).click();
  await page.getByLabel('Team workspace name').fill(teamName);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByLabel('Workspace').locator('option:checked')).toHaveText(
    `${teamName} · Owner · Free`,
  );
  await page.goto('/dashboard?section=settings&tab=plan');
  await page.getByTestId('plans-grid').getByRole('button', { name: 'Upgrade to Intro', exact: true }).click();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('checkout-success')).toContainText('You are now on Intro.');
  // A subscription pays this one: its price and status, on one line.
  await page.reload();
  await expect(page.getByTestId('plan-line')).toHaveText('Intro · $4.99/month');
  await expect(page.getByTestId('subscription-status')).toHaveText('Active');
  await page.goto('/dashboard?section=settings&tab=members');
  const colleague = newAccount('Cleo Words');
  const members = page.getByTestId('members-panel');
  await members.getByLabel('E-mail address').fill(colleague.email);
  await members.getByLabel('Role').selectOption('viewer');
  await members.getByRole('button', { name: 'Invite' }).click();
  await expect(members.getByTestId('invitation')).toContainText(colleague.email);

  const guestContext = await browser.newContext({ viewport: DESKTOP });
  const guest = await guestContext.newPage();
  await prepareSignIn(guestContext);
  await guest.goto(await invitationLink(colleague.email));
  await expect(guest).toHaveURL(/\/login\?from=%2Finvitations%2Faccept/);
  await hydrated(guest);
  await atBothWidths(guest, async () => {
    await expect(guest.getByRole('heading', { level: 1 })).toHaveText(`Join ${teamName}`);
    await expect(guest.getByTestId('invitation-preview')).toHaveText(
      `Iris Words invited you to join ${teamName} on DangleWatch. Sign in with the address the invitation was sent to, and you join it at once.`,
    );
  });
  await signInThroughPopup(guest, 'Continue with Google', colleague);
  await expect(guest.getByRole('heading', { name: `You joined ${teamName}` })).toBeVisible({
    timeout: 15_000,
  });
  // Point 12: the viewer's Plan tab speaks of no operator command and offers nothing to cancel.
  await guest.getByRole('button', { name: `Open ${teamName}` }).click();
  await guest.goto('/dashboard?section=settings&tab=plan');
  await expect(guest.getByTestId('plan-line')).toHaveText('Intro · $4.99/month');
  await expect(guest.getByText(/set-plan|operator/)).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  await guestContext.close();
});
