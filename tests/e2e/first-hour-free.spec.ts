// A webmail user's first hour on Free: the Free rule is read before it bites, the
// add-domain dialog says why and what next before anything is typed, and a team workspace says
// its limit where it is made and before the invite form.
import { expect, test } from '@playwright/test';
import { FREE_DOMAIN_SENTENCE } from '../../src/model/free-tier.ts';
import { getPlan } from '../../src/model/plans.ts';
import { WORKSPACE_MESSAGES } from '../../src/model/workspaces.ts';
import { blockingViolations } from '../helpers/dashboard-e2e.ts';
import { hydrated, prepareSignIn, signInThroughPopup } from '../helpers/emulator-e2e.ts';

test.describe.configure({ timeout: 180_000 });

test('a gmail.com user on Free: the rule before sign-in, the next step before typing, the team limit before inviting', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const account = { email: `wendy.${stamp}@gmail.com`, name: 'Wendy Webmail' };

  // Wherever Free is offered, its rule is said.
  await page.goto('/');
  await expect(page.getByTestId('free-domain-rule')).toHaveText(FREE_DOMAIN_SENTENCE);
  await page.goto('/pricing');
  await expect(page.getByRole('article', { name: 'Free' }).getByTestId('free-domain-rule')).toHaveText(
    FREE_DOMAIN_SENTENCE,
  );
  await prepareSignIn(context);
  await page.goto('/login');
  await hydrated(page);
  await expect(page.getByTestId('free-domain-rule')).toContainText(FREE_DOMAIN_SENTENCE);
  await signInThroughPopup(page, 'Continue with Google', account);
  // The login page goes on to the dashboard by itself once signed in; going elsewhere before it has
  // would race its redirect.
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 15_000 });
  await page.goto('/dashboard?section=domains');
  await expect(page.getByRole('heading', { name: 'Domain Management' })).toBeVisible({ timeout: 15_000 });

  // The empty Domains screen says the rule first, before any click, with no button that cannot work.
  await expect(page.getByTestId('free-rule-domains').getByTestId('webmail-notice')).toContainText(
    `You signed in with ${account.email}, a webmail address`,
  );
  await expect(page.getByRole('button', { name: 'Add Your First Domain' })).toHaveCount(0);
  // The add-domain dialog says why and what next before anything can be typed.
  await page.getByRole('button', { name: 'Add Domain', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Domain to Monitor' });
  const notice = dialog.getByTestId('webmail-notice');
  await expect(notice).toContainText(`You signed in with ${account.email}, a webmail address`);
  await expect(notice).toContainText('Intro, $4.99/month: 25 domains, any domain you prove you own.');
  await expect(dialog.getByRole('textbox')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Connect your DNS provider instead' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Sign in with your work e-mail' })).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);
  await dialog.getByRole('link', { name: 'Upgrade to Intro' }).click();
  await expect(page).toHaveURL(/section=settings&tab=plan/);
  await expect(
    page.getByTestId('plans-grid').getByRole('button', { name: 'Upgrade to Intro', exact: true }),
  ).toBeVisible();

  // A team workspace says where it is made that it starts on Free, with no one to invite.
  await page.getByRole('button', { name: 'Create team workspace' }).click();
  await expect(page.getByTestId('new-team-plan')).toHaveText(
    WORKSPACE_MESSAGES.newTeamStartsFree(getPlan('free'), getPlan('intro')),
  );
  const team = `Wendy's side project ${stamp}`;
  await page.getByLabel('Team workspace name').fill(team);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  // The team's name too: the personal workspace the page was on is 'Owner · Free' as well.
  await expect(page.getByLabel('Workspace').locator('option:checked')).toHaveText(`${team} · Owner · Free`);

  // Before the invite form: the limit and the way to more, and no form to type an address into.
  await page.goto('/dashboard?section=settings&tab=members');
  const members = page.getByTestId('members-panel');
  await expect(members.getByTestId('invite-limit')).toContainText(
    WORKSPACE_MESSAGES.memberLimit(getPlan('free').name, 1),
  );
  await expect(members.getByRole('form', { name: 'Invite a member' })).toHaveCount(0);
  expect(await blockingViolations(page)).toEqual([]);

  // Nor a DNS provider's credential to take, when no zone of it could be monitored on Free.
  await page.goto('/dashboard?section=settings&tab=dns');
  const dns = page.getByTestId('dns-connections-panel');
  await expect(dns.getByTestId('webmail-notice')).toBeVisible();
  await expect(dns.getByRole('form', { name: 'Connect a DNS provider' })).toHaveCount(0);

  // The other way on: signing in again with the work address.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await page
    .getByTestId('free-rule-domains')
    .getByRole('button', { name: 'Sign in with your work e-mail' })
    .click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
});
