import { expect, type Page, test } from '@playwright/test';
import type { ScanListResponse } from '../../src/model/contract.ts';
import {
  addVerifiedDomain,
  blockingViolations,
  invitationLink,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';
import { hydrated, newAccount, prepareSignIn, signInThroughPopup } from '../helpers/emulator-e2e.ts';

test.describe.configure({ timeout: 240_000 });

/** The next domain list the dashboard reads: its headers carry the bearer token and the workspace. */
function nextDomainList(page: Page) {
  return page.waitForRequest((r) => r.url().endsWith('/api/domains') && r.method() === 'GET');
}

test('teams: a shared workspace, an invited viewer who sees its findings but cannot scan, then removed', async ({
  browser,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `team-${stamp}.dev`;
  const dangling = `staging.${domain}`;
  const teamName = `Team ${stamp}`;
  // A dangling CNAME the wordlist finds: the team workspace's first scan reports it.
  await publishDns(dangling, 'CNAME', `dw-${stamp}-team.trafficmanager.net`);

  // The owner creates a team workspace: it starts on Free and becomes the current one.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInToDashboard(owner, ownerContext, {
    email: `olive.${stamp}@${domain}`,
    name: 'Olive Owner',
  });
  await owner.getByRole('button', { name: 'Create team workspace' }).click();
  await owner.getByLabel('Team workspace name').fill(teamName);
  await owner.getByRole('button', { name: 'Create', exact: true }).click();
  const switcher = owner.getByLabel('Workspace');
  await expect(switcher.locator('option:checked')).toHaveText(`${teamName} · Owner · Free`);
  const workspaceId = await switcher.inputValue();
  await expect(owner.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();

  // The owner buys Intro for the team workspace through checkout: the dashboard reopens on it (the
  // last one used), and the team, not the owner's own workspace, is now on Intro.
  await owner.goto('/dashboard?section=settings&tab=plan');
  await expect(switcher.locator('option:checked')).toHaveText(`${teamName} · Owner · Free`);
  await owner
    .getByTestId('plans-grid')
    .getByRole('button', { name: 'Upgrade to Intro', exact: true })
    .click();
  await expect(owner).toHaveURL(/\/checkout\/cs_/);
  await owner.getByRole('button', { name: 'Pay' }).click();
  await expect(owner.getByTestId('checkout-success')).toContainText('You are now on Intro.');
  await expect(switcher.locator('option:checked')).toHaveText(`${teamName} · Owner · Intro`);
  await expect(switcher.locator('option', { hasText: '(personal)' })).toContainText('Free');
  // The account menu's badge and 'Upgrade to Pro' are the owner's own plan: the link opens the
  // personal workspace's plan, not the team's that is open.
  await owner.getByTestId('header-auth').getByRole('button', { name: 'Account menu' }).click();
  await owner
    .getByRole('menu', { name: 'Account' })
    .first()
    .getByRole('menuitem', { name: 'Upgrade to Pro' })
    .click();
  await expect(switcher.locator('option:checked')).toContainText('(personal)');
  await expect(owner.getByTestId('plans-grid')).toBeVisible();
  await switcher.selectOption(workspaceId);
  await expect(switcher.locator('option:checked')).toHaveText(`${teamName} · Owner · Intro`);
  await owner.getByRole('button', { name: 'Domains', exact: true }).click();

  // A domain added and verified in the team workspace; its first scan finds the dangling record.
  await addVerifiedDomain(owner, domain);
  await expect(owner.getByTestId('domain-card').getByTestId('domain-status')).toHaveText('Verified');
  await owner.getByRole('button', { name: 'Scans', exact: true }).click();
  const ownerScan = owner.getByTestId('scan-card').first();
  await expect(ownerScan.getByTestId('scan-status')).toHaveText('Completed', { timeout: 90_000 });
  await expect(ownerScan.getByTestId('finding-summary').filter({ hasText: dangling })).toBeVisible();

  await owner.getByRole('button', { name: 'Settings', exact: true }).click();
  await owner.getByRole('tab', { name: 'Members' }).click();

  // The owner invites a colleague as a viewer: the invitation holds a seat of the plan's three.
  const colleague = newAccount('Cleo Colleague');
  const panel = owner.getByTestId('members-panel');
  await panel.getByLabel('E-mail address').fill(colleague.email);
  await panel.getByLabel('Role').selectOption('viewer');
  await panel.getByRole('button', { name: 'Invite' }).click();
  await expect(panel.getByTestId('invitation')).toContainText(colleague.email);
  await expect(panel.getByTestId('member-limit')).toContainText('2 of 3 members');
  expect(await blockingViolations(owner)).toEqual([]);

  // The colleague opens the link from the e-mail, signs in with that address, and joins.
  const colleagueContext = await browser.newContext();
  const guest = await colleagueContext.newPage();
  await prepareSignIn(colleagueContext);
  await guest.goto(await invitationLink(colleague.email));
  await expect(guest).toHaveURL(/\/login\?from=%2Finvitations%2Faccept/);
  await hydrated(guest);
  await signInThroughPopup(guest, 'Continue with Google', colleague);
  await expect(guest.getByRole('heading', { name: `You joined ${teamName}` })).toBeVisible({
    timeout: 15_000,
  });
  expect(await blockingViolations(guest)).toEqual([]);
  await guest.getByRole('button', { name: `Open ${teamName}` }).click();

  // The shared findings, read-only: no New Scan, no Re-scan, no accepting a risk.
  await expect(guest.getByRole('heading', { name: 'Security Scans' })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByLabel('Workspace').locator('option:checked')).toHaveText(
    `${teamName} · Viewer · Intro`,
  );
  const guestScan = guest.getByTestId('scan-card').first();
  await expect(guestScan).toContainText(domain);
  await expect(guestScan.getByTestId('finding-summary').filter({ hasText: dangling })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'New Scan' })).toHaveCount(0);
  await expect(guestScan.getByRole('button', { name: 'Re-scan' })).toHaveCount(0);
  await guestScan.getByRole('button', { name: 'View Details' }).click();
  const details = guest.getByRole('dialog', { name: `Scan details: ${domain}` });
  await expect(details.getByTestId('finding-card').filter({ hasText: dangling })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Accept this risk…' })).toHaveCount(0);
  await details.getByRole('button', { name: 'Close' }).click();
  const listed = nextDomainList(guest);
  await guest.getByRole('button', { name: 'Domains', exact: true }).click();
  const { authorization = '', 'x-workspace-id': scopedTo } = (await listed).headers();
  expect(scopedTo).toBe(workspaceId);
  await expect(guest.getByTestId('domain-card')).toContainText(domain);
  await expect(guest.getByRole('button', { name: 'Add Domain' })).toHaveCount(0);
  expect(await blockingViolations(guest)).toEqual([]);

  // And the API itself refuses a viewer's scan, naming the role it needs.
  const refused = await guest.request.post('/scan/api/v1/scan', {
    headers: { authorization, 'X-Workspace-ID': workspaceId },
    data: { domain, scanType: 'dangling-subdomains' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toContain('Member role');

  // An alert about the team's scan, opened while the colleague has their own workspace open: the
  // link names the team's workspace, so the scan opens there.
  const teamScans = await guest.request.get('/scan/api/v1/scans', {
    headers: { authorization, 'X-Workspace-ID': workspaceId },
  });
  const [teamScan] = ((await teamScans.json()) as ScanListResponse).scans;
  const guestSwitcher = guest.getByLabel('Workspace');
  await guestSwitcher.selectOption(
    (await guestSwitcher.locator('option', { hasText: '(personal)' }).getAttribute('value')) ?? '',
  );
  await expect(guest.getByRole('button', { name: 'Add Domain' })).toBeVisible();
  await guest.goto(`/dashboard?section=scans&scan=${teamScan?.scan_id}&workspace=${workspaceId}`);
  const linked = guest.getByRole('dialog', { name: `Scan details: ${domain}` });
  await expect(linked).toBeVisible({ timeout: 15_000 });
  await expect(guestSwitcher.locator('option:checked')).toHaveText(`${teamName} · Viewer · Intro`);
  await expect(guest).toHaveURL(new RegExp(`/dashboard\\?section=scans&scan=${teamScan?.scan_id}$`));
  await linked.getByRole('button', { name: 'Close' }).click();
  await guest.getByRole('button', { name: 'Domains', exact: true }).click();

  // The owner sees the colleague as a member, and removes them.
  await owner.reload();
  const row = owner.getByTestId('member-row').filter({ hasText: colleague.email });
  const role = row.getByLabel(`Role of ${colleague.name}`);
  await expect(role).toHaveValue('viewer');
  // A role change asks first, and says what follows for the member's API keys.
  await role.selectOption('member');
  const changing = owner.getByRole('dialog', { name: 'Change role' });
  await expect(changing).toContainText('The API keys they made follow the new role from their next call');
  expect(await blockingViolations(owner)).toEqual([]);
  await changing.getByRole('button', { name: 'Change role' }).click();
  await expect(changing).toHaveCount(0);
  await expect(role).toHaveValue('member');
  await row.getByRole('button', { name: `Remove ${colleague.name}` }).click();
  await owner
    .getByRole('dialog', { name: 'Remove member' })
    .getByRole('button', { name: 'Remove member' })
    .click();
  await expect(row).toHaveCount(0);

  // Settings → Activity tells the story, newest first, in plain words.
  await owner.getByRole('tab', { name: 'Activity' }).click();
  const story = owner.getByTestId('activity');
  await expect(story.first()).toContainText(`Olive Owner removed ${colleague.name}`);
  await expect(story.filter({ hasText: `Olive Owner invited ${colleague.email} as viewer` })).toHaveCount(1);
  await expect(story.filter({ hasText: 'moved the workspace to the Intro plan (was Free)' })).toHaveCount(1);
  await expect(story.filter({ hasText: `${colleague.name} joined as viewer` })).toHaveCount(1);
  expect(await blockingViolations(owner)).toEqual([]);

  // The colleague sees nothing of it any more: back on their personal workspace, with no scans.
  await guest.reload();
  await expect(guest.getByRole('heading', { name: 'Domain Management' })).toBeVisible({ timeout: 15_000 });
  await expect(guestSwitcher.locator('option')).toHaveCount(1);
  await expect(guestSwitcher.locator('option:checked')).toContainText('(personal)');
  await expect(guest.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
  await guest.getByRole('button', { name: 'Scans', exact: true }).click();
  await expect(guest.getByRole('heading', { name: 'No scans yet' })).toBeVisible();
  await expect(guest.getByText(domain)).toHaveCount(0);

  await ownerContext.close();
  await colleagueContext.close();
});

test('teams: the owner renames the workspace and deletes it; a tab still on it goes home and says why', async ({
  browser,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const teamName = `Crew ${stamp}`;
  const renamed = `Crew ${stamp} Ltd`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToDashboard(page, context, { email: `rita.${stamp}@example.com`, name: 'Rita Owner' });
  await page.getByRole('button', { name: 'Create team workspace' }).click();
  await page.getByLabel('Team workspace name').fill(teamName);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const switcher = page.getByLabel('Workspace', { exact: true });
  await expect(switcher.locator('option:checked')).toHaveText(`${teamName} · Owner · Free`);

  // Settings → Members: the Workspace card renames it, and the switcher follows.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Members' }).click();
  const card = page.getByTestId('workspace-card');
  await expect(card.getByRole('button', { name: 'Leave workspace' })).toHaveCount(0);
  await card.getByLabel('Name', { exact: true }).fill(renamed);
  await card.getByRole('button', { name: 'Rename' }).click();
  await expect(switcher.locator('option:checked')).toHaveText(`${renamed} · Owner · Free`);
  await expect(page.getByRole('heading', { name: `Members of ${renamed}` })).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);

  // A second tab opens on it too (the last one used), on Settings.
  const other = await context.newPage();
  await other.goto('/dashboard?section=settings');
  await expect(other.getByLabel('Workspace', { exact: true }).locator('option:checked')).toHaveText(
    `${renamed} · Owner · Free`,
  );

  // Deleting asks for the workspace's name, typed as it is.
  await card.getByRole('button', { name: 'Delete workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete workspace' });
  const confirm = dialog.getByRole('button', { name: 'Delete workspace' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${renamed} to confirm`).fill(teamName);
  await expect(confirm).toBeDisabled();
  expect(await blockingViolations(page)).toEqual([]);
  await dialog.getByLabel(`Type ${renamed} to confirm`).fill(renamed);
  await confirm.click();
  await expect(page.getByText('Workspace deleted')).toBeVisible();
  await expect(switcher.locator('option')).toHaveCount(1);
  await expect(switcher.locator('option:checked')).toContainText('(personal)');
  await expect(page.getByRole('heading', { name: /^Members of / })).toContainText('Personal');
  await expect(page.getByTestId('workspace-card')).toHaveCount(0);

  // The other tab's next call finds the workspace gone: home, in plain words, not a screen of 404s.
  await other.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(other.getByText(`You no longer have access to ${renamed}`)).toBeVisible();
  const otherSwitcher = other.getByLabel('Workspace', { exact: true });
  await expect(otherSwitcher.locator('option:checked')).toContainText('(personal)');
  await expect(other.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
  await context.close();
});
