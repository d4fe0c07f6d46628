import { expect, test } from '@playwright/test';
import type { ZoneRecord } from '../../src/scanner/zone/record.ts';
import {
  blockingViolations,
  cloudflareZone,
  connectCloudflareAndMonitor,
  delegate,
  E2E_PAGERDUTY_KEY,
  mailSubjects,
  moveAcceptanceClock,
  pagerDutyAlerts,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 240_000 });

/**
 * An accepted risk is a decision with a date: accepted with a reason until the end of today, it
 * reopens when the clock passes that, says so on the finding, mails the alert once, and pages the
 * workspace's PagerDuty again (accepting had resolved the page).
 */
test('a risk accepted with a reason and a near expiry reopens with its alert when the clock moves past it', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const zone = `expiry-${stamp}.dev`;
  const email = `eve.${stamp}@${zone}`;
  const dangling: ZoneRecord = {
    name: `old.${zone}`,
    type: 'CNAME',
    ttl: 300,
    data: `dw-${stamp}-old.azurewebsites.net`,
  };
  const { token, nameServers } = await cloudflareZone(zone, [
    { name: zone, type: 'A', ttl: 300, data: '127.0.0.1' },
    dangling,
  ]);
  await publishDns(zone, 'A', '127.0.0.1');
  await publishDns(dangling.name, 'CNAME', dangling.data);
  await delegate(zone, nameServers);
  await signInToDashboard(page, context, { email, name: 'Eve Expiry' });

  // The zone is monitored through Cloudflare: its first scan finds the dangling name.
  await connectCloudflareAndMonitor(page, token, zone);
  const card = page.getByTestId('domain-card').filter({ hasText: zone });
  const expectIssues = async (issues: number) =>
    expect(async () => {
      await page.getByRole('button', { name: 'Scans', exact: true }).click();
      await page.getByRole('button', { name: 'Domains', exact: true }).click();
      // None open: the card shows no issue count at all.
      if (issues === 0) await expect(card).not.toContainText(/\d+ issues?/, { timeout: 2_000 });
      else
        await expect(card).toContainText(`${issues} ${issues === 1 ? 'issue' : 'issues'}`, {
          timeout: 2_000,
        });
    }).toPass({ timeout: 120_000, intervals: [2_000] });
  await expectIssues(1);

  // The workspace's pager: connected in Settings → Integrations, it is paged for the open finding.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Integrations' }).click();
  const integrations = page.getByTestId('integrations-panel');
  await integrations.getByLabel('Service').selectOption('pagerduty');
  await integrations.getByLabel('Integration (routing) key').fill(E2E_PAGERDUTY_KEY);
  await integrations.getByRole('button', { name: 'Connect PagerDuty' }).click();
  await expect(integrations.getByTestId('integration')).toContainText('PagerDuty');
  await expect(integrations.getByTestId('integration')).toContainText('credential …0001');
  // A rotated key is checked with PagerDuty before it replaces the old one.
  await integrations.getByRole('button', { name: 'Replace credential' }).click();
  const replace = integrations.getByRole('form', { name: /^New credential for / });
  await replace.getByLabel('Integration (routing) key').fill('Z'.repeat(32));
  await replace.getByRole('button', { name: 'Replace Credential' }).click();
  await expect(replace.getByRole('alert')).toContainText('PagerDuty knows no service by this routing key');
  expect(await blockingViolations(page)).toEqual([]);
  await replace.getByLabel('Integration (routing) key').fill(E2E_PAGERDUTY_KEY);
  await replace.getByRole('button', { name: 'Replace Credential' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Credential Replaced' })).toBeVisible();
  await expect(replace).toBeHidden();
  /** The finding's PagerDuty alert (not the connect check's dw-test one), once it is `status`. */
  const pagedAs = (status: string) =>
    expect(async () => {
      const alerts = Object.entries(await pagerDutyAlerts()).filter(([key]) => key.startsWith('dw:'));
      expect(alerts.map(([, a]) => a.status)).toEqual([status]);
    }).toPass({ timeout: 30_000, intervals: [1_000] });
  await pagedAs('triggered');

  const openHistory = async () => {
    await page.getByRole('button', { name: 'Scans', exact: true }).click();
    const scan = page.getByTestId('scan-card').filter({ hasText: 'Completed' }).last();
    await scan.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: `Scan details: ${zone}` });
    const history = details
      .getByTestId('finding-item')
      .filter({ hasText: dangling.name })
      .getByTestId('finding-history');
    await expect(history).toContainText('First seen');
    return { details, history };
  };

  // Accepted with a reason, until the end of today (UTC): the nearest date the form offers.
  const today = new Date().toISOString().slice(0, 10);
  let { details, history } = await openHistory();
  await history.getByRole('button', { name: 'Accept this risk…' }).click();
  // The form offers 30 days ahead; nothing is applied without being shown.
  const until = history.getByLabel('Until', { exact: true });
  await expect(until).toHaveValue(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
  await history
    .getByLabel('Why is this risk acceptable?')
    .fill('Decommissioned tonight, record goes tomorrow');
  await until.fill(today);
  await history.getByRole('button', { name: 'Accept risk' }).click();
  await expect(history).toContainText('Accepted risk by Eve Expiry');
  await expect(history.getByTestId('accepted-until')).toContainText('Until');
  expect(await blockingViolations(page)).toEqual([]);
  await details.getByRole('button', { name: 'Close' }).click();
  await expectIssues(0);
  // Accepted: the page is resolved.
  await pagedAs('resolved');

  // The clock moves past the end of today: the acceptance ends, once.
  const tomorrow = new Date(`${today}T23:59:59.999Z`);
  tomorrow.setTime(tomorrow.getTime() + 60 * 60_000);
  expect(await moveAcceptanceClock(tomorrow)).toBe(1);
  expect(await moveAcceptanceClock(tomorrow)).toBe(0);

  // The finding is open again and says why; the card counts it again.
  await expectIssues(1);
  ({ details, history } = await openHistory());
  await expect(history.getByTestId('acceptance-ended')).toHaveText(
    `Open again: the acceptance by Eve Expiry expired on ${today}.`,
  );
  await expect(history.getByRole('button', { name: 'Accept this risk…' })).toBeVisible();
  // And the pager is paged again, under the same key.
  await pagedAs('triggered');
  expect(await blockingViolations(page)).toEqual([]);

  // The alert went out once, in those words.
  const alerts = (await mailSubjects(email)).filter((s) => s.includes('expired'));
  expect(alerts).toEqual([
    `DangleWatch: ${dangling.name} is open again: the acceptance by Eve Expiry expired on ${today}`,
  ]);

  // The finding's link, as the page and tickets carry it (its key), opens that finding itself.
  const [key] = Object.keys(await pagerDutyAlerts()).filter((k) => k.startsWith('dw:'));
  await page.goto(`/dashboard?section=scans&finding=${key}`);
  const linked = page.getByRole('dialog', { name: `Finding: ${dangling.name}` });
  await expect(linked).toBeVisible({ timeout: 15_000 });
  await expect(linked).toContainText(`key ${key}`);
  await expect(linked.getByTestId('acceptance-ended')).toBeVisible();
  expect(await blockingViolations(page)).toEqual([]);
});
