import { expect, type Page, test } from '@playwright/test';
import { defaultUntilDate } from '../../src/model/acceptance.ts';
import type { ZoneRecord } from '../../src/scanner/zone/record.ts';
import {
  blockingViolations,
  cloudflareZone,
  connectCloudflareAndMonitor,
  delegate,
  E2E_LINEAR_KEY,
  linearRefusesNextIssue,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';
import { DESKTOP, PHONE, WIDTHS } from '../helpers/viewports.ts';

test.describe.configure({ timeout: 240_000 });

/**
 * The domain card after the first hour's usual steps (a connected zone's full scan, a zone file
 * uploaded beside it, whose records a change scan checks, and a finding accepted as a risk): its
 * badge, counts by status, trend and scan panel say one number; each inventory source counts as
 * itself; the accept form offers its default date again after Undo; a finding link of no finding
 * here says so. At 390 and 1280 px.
 */
test('one number per domain card, each source as itself, the accept form after Undo, a link to no finding', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const zone = `cards-${stamp}.dev`;
  // A name whose CNAME points at an Azure app that no longer exists (NXDOMAIN): a claimable finding.
  const dangling = (label: string): ZoneRecord => ({
    name: `${label}.${zone}`,
    type: 'CNAME',
    ttl: 300,
    data: `dw-${stamp}-${label}.azurewebsites.net`,
  });
  // The file's own name is not one discovery would guess: only the upload brings it.
  const [alpha, beta, filed] = ['alpha', 'beta', `filed-${stamp}`].map(dangling) as [
    ZoneRecord,
    ZoneRecord,
    ZoneRecord,
  ];
  const { token, nameServers } = await cloudflareZone(zone, [
    { name: zone, type: 'A', ttl: 300, data: '127.0.0.1' },
    alpha,
    beta,
  ]);
  await publishDns(zone, 'A', '127.0.0.1');
  for (const record of [alpha, beta, filed]) await publishDns(record.name, 'CNAME', record.data);
  await delegate(zone, nameServers);
  // The steps at 1280 px; what the card says, at both widths after them.
  await page.setViewportSize(DESKTOP);
  await signInToDashboard(page, context, { email: `cara.${stamp}@${zone}`, name: 'Cara Cards' });

  const card = page.getByTestId('domain-card').filter({ hasText: zone });
  /** Goes to a section as a user does: on a phone, through the dashboard menu. */
  const section = async (name: 'Scans' | 'Domains') => {
    const menu = page.getByRole('button', { name: 'Dashboard menu' });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false')
      await menu.click();
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('button', { name, exact: true })
      .click();
  };
  const domainsScreen = () => section('Domains');
  const scansScreen = () => section('Scans');
  const expectIssues = async (issues: number) =>
    expect(async () => {
      await scansScreen();
      await domainsScreen();
      await expect(card).toContainText(`${issues} ${issues === 1 ? 'issue' : 'issues'}`, { timeout: 2_000 });
    }).toPass({ timeout: 120_000, intervals: [2_000] });

  // The zone, connected and monitored: its first scan is a full one.
  await connectCloudflareAndMonitor(page, token, zone);
  await expectIssues(2);

  // A zone file with one more name, beside the connected zone: a change scan checks that name.
  await card.getByLabel('Upload zone file').setInputFiles({
    name: `${zone}.zone`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`$ORIGIN ${zone}.\n$TTL 300\nfiled-${stamp} IN CNAME ${filed.data}.\n`),
  });
  await expectIssues(3);
  await expect(async () => {
    await scansScreen();
    await domainsScreen();
    await expect(card.getByTestId('change-scan')).toContainText('Change scan', { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });

  // Alpha accepted with a date of its own, undone, and the form opened again: the default date.
  await scansScreen();
  await page
    .getByTestId('scan-card')
    .filter({ hasText: 'Completed' })
    .last()
    .getByRole('button', { name: 'View Details' })
    .click();
  const details = page.getByRole('dialog', { name: `Scan details: ${zone}` });
  const history = details
    .getByTestId('finding-item')
    .filter({ hasText: alpha.name })
    .getByTestId('finding-history');
  const today = new Date().toISOString().slice(0, 10);
  await history.getByRole('button', { name: 'Accept this risk…' }).click();
  await expect(history.getByLabel('Until', { exact: true })).toHaveValue(defaultUntilDate(new Date()));
  await history.getByLabel('Why is this risk acceptable?').fill('Moving it this week');
  await history.getByLabel('Until', { exact: true }).fill(today);
  await history.getByRole('button', { name: 'Accept risk' }).click();
  await expect(history).toContainText('Accepted risk');
  await history.getByRole('button', { name: 'Undo' }).click();
  await history.getByRole('button', { name: 'Accept this risk…' }).click();
  await expect(history.getByLabel('Until', { exact: true })).toHaveValue(defaultUntilDate(new Date()));
  await expect(history.getByLabel('Why is this risk acceptable?')).toHaveValue('');
  await history.getByLabel('Why is this risk acceptable?').fill('Moving it this week');
  await history.getByRole('button', { name: 'Accept risk' }).click();
  await expect(history).toContainText('Accepted risk');
  await details.getByRole('button', { name: 'Close' }).click();
  await expectIssues(2);

  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    await scansScreen();
    await domainsScreen();
    // One number: the badge, the counts by status, the trend's latest point.
    await expect(card, width).toContainText('2 issues');
    const counts = card.getByTestId('open-counts');
    await expect(counts.locator('div').filter({ hasText: 'Claimable' }).locator('dd'), width).toHaveText('2');
    await expect(counts.locator('div').filter({ hasText: 'Likely' }).locator('dd'), width).toHaveText('0');
    await expect(counts.locator('div').filter({ hasText: 'Accepted' }).locator('dd'), width).toHaveText('1');
    await expect(card, width).not.toContainText('Critical');
    // The panel shows the full scan, and the later change scan beside it as such.
    const panel = card.getByTestId('scan-panel');
    await expect(panel, width).toContainText('Full scan of');
    await expect(panel.getByTestId('change-scan'), width).toContainText(
      /^Change scan \(the records that changed\) of .+: \d+ names? checked/,
    );
    await card.getByRole('button', { name: 'Show trend' }).click();
    await expect(page.getByTestId('trend-latest'), width).toContainText(
      ': 2 claimable, 0 likely, 0 to review.',
    );
    await card.getByRole('button', { name: 'Hide trend' }).click();
    // Each source as itself: the file's one record, then Cloudflare's three, not "4 from a zone file".
    const line = card.getByTestId('inventory-line');
    await expect(line, width).toContainText('1 record from a zone file uploaded');
    await expect(line, width).toContainText('3 records from Cloudflare, read');
    expect(await blockingViolations(page), width).toEqual([]);
  }

  // A link to a finding this workspace does not hold says so, where the finding would have opened.
  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto(`/dashboard?section=scans&finding=dw:${'0'.repeat(40)}`);
    const missing = page.getByTestId('finding-link-missing');
    await expect(missing, width).toContainText('Finding not found in this workspace');
    await expect(missing, width).toContainText(`dw:${'0'.repeat(40)}, which was not found in this workspace`);
    await expect(page.getByRole('dialog'), width).toHaveCount(0);
    expect(await blockingViolations(page), width).toEqual([]);
    await missing.getByRole('button', { name: 'Dismiss' }).click();
    await expect(missing).toHaveCount(0);
  }
});

/** The strip's cues match what it hides: an arrow at each end beyond which tabs are hidden. */
async function expectCuesMatchStrip(page: Page, width: string) {
  const strip = page.getByRole('tablist', { name: 'Settings' });
  const hidden = await strip.evaluate((s) => ({
    before: s.scrollLeft > 1,
    after: s.scrollLeft + s.clientWidth < s.scrollWidth - 1,
  }));
  await expect(page.getByTestId('tabs-scroll-before'), width).toHaveCount(hidden.before ? 1 : 0);
  await expect(page.getByTestId('tabs-scroll-after'), width).toHaveCount(hidden.after ? 1 : 0);
  return hidden;
}

/**
 * Settings at 390 and 1280 px: the tab strip says it scrolls where tabs are hidden; the AWS policy
 * box is reached by keyboard; PagerDuty's refusal is said in plain words; Linear is connected by
 * its team's key, and a delivery Linear refuses shows on its card, in words.
 */
test('settings: the tab strip shows it scrolls, the AWS policy takes focus, Linear by its key, failures in words', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  await page.setViewportSize(PHONE);
  await signInToDashboard(page, context, {
    email: `sete.${stamp}@settings-${stamp}.dev`,
    name: 'Sete Settings',
  });
  await page.goto('/dashboard?section=settings&tab=profile');
  const tab = (name: string) => page.getByRole('tab', { name, exact: true });

  // At 390 px six of ten tabs are off the strip: the arrow says so, and End brings the last into view.
  await expect(tab('Profile')).toHaveAttribute('aria-selected', 'true');
  expect(await expectCuesMatchStrip(page, '390 px')).toEqual({ before: false, after: true });
  await tab('Profile').focus();
  await page.keyboard.press('End');
  await expect(tab('Data')).toBeFocused();
  // Scrolled into the strip's view, whole.
  const inStrip = await tab('Data').evaluate((t) => {
    const box = t.getBoundingClientRect();
    const strip = (t.parentElement as HTMLElement).getBoundingClientRect();
    return box.left >= strip.left - 1 && box.right <= strip.right + 1;
  });
  expect(inStrip).toBe(true);
  await expect(page).toHaveURL(/tab=data$/);
  await expect(page.getByTestId('tabs-scroll-before')).toBeVisible();
  await expectCuesMatchStrip(page, '390 px');
  // A press on the arrow scrolls the strip back; it is not a tab stop.
  await expect(page.getByTestId('tabs-scroll-before')).toHaveAttribute('tabindex', '-1');
  await page.getByTestId('tabs-scroll-before').click();
  await expect(page.getByTestId('tabs-scroll-after')).toBeVisible();

  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    await expectCuesMatchStrip(page, width);

    // Cloud: the policy boxes scroll sideways and take keyboard focus, named.
    await tab('Cloud').click();
    const policy = page.getByRole('region', { name: 'The AWS read policy' });
    await expect(policy, width).toHaveAttribute('tabindex', '0');
    await policy.focus();
    await expect(policy, width).toBeFocused();
    expect(await blockingViolations(page), width).toEqual([]);
  }

  // Integrations: PagerDuty's refusal in plain words, its own kept out of the sentence.
  await page.setViewportSize(PHONE);
  await tab('Integrations').click();
  const panel = page.getByTestId('integrations-panel');
  await panel.getByLabel('Service').selectOption('pagerduty');
  await panel.getByLabel('Integration (routing) key').fill('Z'.repeat(32));
  await panel.getByRole('button', { name: 'Connect PagerDuty' }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    'PagerDuty knows no service by this routing key: copy the Integration Key of an Events API v2 integration on the PagerDuty service (Integrations tab)',
  );

  // Linear by its team's key: one the key does not see is refused with the teams it sees.
  await panel.getByLabel('Service').selectOption('linear');
  await panel.getByLabel('Team key or name').fill('OPS');
  await panel.getByLabel('Personal API key').fill(E2E_LINEAR_KEY);
  await panel.getByRole('button', { name: 'Connect Linear' }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    "This Linear API key sees no team “OPS”: give one of its teams' keys: SEC (Security)",
  );
  await panel.getByLabel('Team key or name').fill('SEC');
  await panel.getByRole('button', { name: 'Connect Linear' }).click();
  const linear = panel.getByTestId('integration').filter({ hasText: 'Security (SEC)' });
  await expect(linear).toBeVisible();

  // A delivery Linear refuses: the card says deliveries fail, and why, not "delivered".
  await linearRefusesNextIssue();
  await linear.getByRole('button', { name: 'Send a test' }).click();
  await expect(async () => {
    await tab('Cloud').click();
    await tab('Integrations').click();
    await expect(linear.getByTestId('integration-failing')).toContainText(
      "The test failed: Linear does not know this integration's team",
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  for (const [width, size] of WIDTHS) {
    await page.setViewportSize(size);
    await expect(linear.getByTestId('integration-last-delivery'), width).toContainText('Failing since');
    await expect(linear, width).not.toContainText('delivered');
    expect(await blockingViolations(page), width).toEqual([]);
  }
});
