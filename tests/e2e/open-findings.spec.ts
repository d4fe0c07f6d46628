import { expect, test } from '@playwright/test';
import { RISK_NOTE_MAX } from '../../src/model/constants.ts';
import type { ZoneRecord } from '../../src/scanner/zone/record.ts';
import {
  blockingViolations,
  cloudflareRecord,
  cloudflareZone,
  connectCloudflareAndMonitor,
  delegate,
  openDnsSettings,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 300_000 });

/**
 * The numbers a monitoring product lives by are what is open now: a connected zone's first scan, a
 * sync that scans one changed record, a zone file that brings one more, and a finding accepted as a
 * risk; after each, the domain's card, its trend and the Scans screen's totals.
 */
test('the card, the trend and the totals count what is open now, through a sync, an upload and an acceptance', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const zone = `state-${stamp}.dev`;
  // A name whose CNAME points at an Azure app that no longer exists (NXDOMAIN): a claimable finding.
  const dangling = (label: string): ZoneRecord => ({
    name: `${label}.${zone}`,
    type: 'CNAME',
    ttl: 300,
    data: `dw-${stamp}-${label}.azurewebsites.net`,
  });
  const publish = async (record: ZoneRecord) => publishDns(record.name, 'CNAME', record.data);
  const alpha = dangling('alpha');
  const beta = dangling('beta');
  const { token, nameServers } = await cloudflareZone(zone, [
    { name: zone, type: 'A', ttl: 300, data: '127.0.0.1' },
    alpha,
    beta,
  ]);
  await publishDns(zone, 'A', '127.0.0.1');
  await publish(alpha);
  await publish(beta);
  await delegate(zone, nameServers);
  await signInToDashboard(page, context, { email: `sam.${stamp}@${zone}`, name: 'Sam State' });

  const card = page.getByTestId('domain-card').filter({ hasText: zone });
  const domainsScreen = () => page.getByRole('button', { name: 'Domains', exact: true }).click();
  const scansScreen = () => page.getByRole('button', { name: 'Scans', exact: true }).click();
  /** The card's issue badge once it reads `issues`, going back and forth so the list is read again. */
  const expectIssues = async (issues: number) =>
    expect(async () => {
      await scansScreen();
      await domainsScreen();
      await expect(card).toContainText(`${issues} ${issues === 1 ? 'issue' : 'issues'}`, { timeout: 2_000 });
    }).toPass({ timeout: 120_000, intervals: [2_000] });
  const expectIssuesFound = async (issues: number) => {
    await scansScreen();
    await expect(
      page.getByTestId('scan-summary').locator('div').filter({ hasText: 'Issues Found' }).locator('dd'),
    ).toHaveText(String(issues));
  };
  const latestTrend = async () => {
    await domainsScreen();
    await card.getByRole('button', { name: 'Show trend' }).click();
    const trend = page.getByTestId('domain-trend');
    await expect(trend).toContainText('Latest scan');
    const line = (await trend.getByText(/^Latest scan/).textContent()) ?? '';
    await card.getByRole('button', { name: 'Hide trend' }).click();
    return line;
  };

  // Connect Cloudflare and monitor the zone, which public DNS delegates to it: its first scan.
  await connectCloudflareAndMonitor(page, token, zone);
  await expectIssues(2);
  await expectIssuesFound(2);

  // A record added at Cloudflare: the sync scans just that name, and the other two stay open.
  const gamma = dangling('gamma');
  await cloudflareRecord(zone, gamma);
  await publish(gamma);
  await openDnsSettings(page);
  await page.getByTestId('dns-connection').getByRole('button', { name: 'Sync now' }).click();
  await expectIssues(3);
  await expectIssuesFound(3);
  await expect(page.getByTestId('scan-partial').first()).toContainText(
    /Partial scan of the zone's changed records: \d+ names? checked/,
  );
  expect(await latestTrend()).toMatch(/: 3 claimable, 0 likely, 0 to review\.$/);

  // A zone file with one more name: it is added to the inventory beside Cloudflare's, and scanned.
  const delta = dangling('delta');
  await publish(delta);
  await domainsScreen();
  await card.getByLabel('Upload zone file').setInputFiles({
    name: `${zone}.zone`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`$ORIGIN ${zone}.\n$TTL 300\ndelta IN CNAME ${delta.data}.\n`),
  });
  await expect(page.getByRole('status').filter({ hasText: 'Zone File Uploaded' })).toContainText(
    'being scanned now',
  );
  await expectIssues(4);
  // Each source counted as itself: the file's one record, then Cloudflare's four (not 5 "from a zone file").
  await expect(card.getByTestId('inventory-line')).toContainText('1 record from a zone file uploaded');
  await expect(card.getByTestId('inventory-line')).toContainText('4 records from Cloudflare, read');
  await expectIssuesFound(4);

  // Accepting one: it leaves the counts, and its card says it is accepted, not HIGH RISK.
  const scan = page.getByTestId('scan-card').filter({ hasText: 'Completed' }).last();
  await scan.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: `Scan details: ${zone}` });
  const history = details
    .getByTestId('finding-item')
    .filter({ hasText: alpha.name })
    .getByTestId('finding-history');
  await history.getByRole('button', { name: 'Accept this risk…' }).click();
  // A note as long as the field takes, without a space (a pasted ticket link, say).
  const note = `Being-moved-this-week:${'x'.repeat(RISK_NOTE_MAX - 22)}`;
  await history.getByLabel('Why is this risk acceptable?').fill(note);
  await history.getByRole('button', { name: 'Accept risk' }).click();
  await expect(history).toContainText('Accepted risk');
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('finding-summary').filter({ hasText: alpha.name }).first()).toContainText(
    'ACCEPTED RISK',
  );
  await expectIssuesFound(3);
  await expectIssues(3);
  expect(await blockingViolations(page)).toEqual([]);

  // Regression: in Settings → Activity the note is bounded; the page stretched to 4,378 px before.
  await page.goto('/dashboard?section=settings&tab=activity');
  const accepted = page.getByTestId('activity').filter({ hasText: 'accepted the risk of' });
  await expect(accepted).toHaveCount(1);
  const box = await accepted.boundingBox();
  expect(box?.height).toBeLessThan(120);
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  await expect(accepted.locator('span[title]')).toHaveAttribute('title', new RegExp(`${note}`));
});
