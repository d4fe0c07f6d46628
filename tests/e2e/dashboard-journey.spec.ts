import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { blockingViolations, publishCt, publishDns, signInToDashboard } from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 180_000 });

test('journey: add, prove with TXT, scan with live progress, read the findings, download, re-scan, cancel', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `journey-${stamp}.dev`;
  const wordlistName = `staging.${domain}`;
  const ctOnlyName = `legacy-portal-${stamp}.${domain}`;
  // Two dangling CNAMEs into Azure names that no longer exist: one the wordlist finds, one only CT knows.
  await publishDns(wordlistName, 'CNAME', `dw-${stamp}-staging.trafficmanager.net`);
  await publishDns(ctOnlyName, 'CNAME', `dw-${stamp}-legacy.azurewebsites.net`);
  await publishCt(domain, [ctOnlyName, `*.${domain}`]);

  await signInToDashboard(page, context, { email: `jo.${stamp}@${domain}`, name: 'Jo Journey' });

  // Add the domain suggested from the e-mail address.
  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  await page.getByRole('button', { name: 'Use This' }).click();
  await page.getByRole('button', { name: 'Configure Scanning' }).click();
  await page
    .getByRole('dialog', { name: 'Scan Configuration' })
    .getByRole('button', { name: 'Add Domain' })
    .click();
  const verify = page.getByRole('dialog', { name: 'Domain Added - Verification Required' });
  const value = (await verify.getByTestId('txt-value').textContent()) ?? '';
  expect(value).toMatch(/^danglewatch-verify=/);

  // Before the record exists the server says so; once published, verification succeeds.
  await verify.getByRole('button', { name: 'Done, Start Monitoring' }).click();
  await expect(verify.getByRole('alert')).toContainText(`No TXT record found at ${domain}`);
  await publishDns(domain, 'TXT', value);
  await verify.getByRole('button', { name: 'Done, Start Monitoring' }).click();
  await expect(verify).toHaveCount(0);
  const card = page.getByTestId('domain-card');
  await expect(card.getByTestId('domain-status')).toHaveText('Verified');
  await expect(card.getByTestId('scan-panel')).toBeVisible();

  // The first scan starts by itself; the Scans screen follows it live, without a reload.
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  const scanCard = page.getByTestId('scan-card').first();
  await expect(scanCard).toContainText(domain);
  await expect(scanCard.getByTestId('scan-progress')).toContainText(/names checked|findings checked/, {
    timeout: 20_000,
  });
  await expect(scanCard.getByTestId('scan-status')).toHaveText('Completed', { timeout: 90_000 });
  await expect(scanCard).toContainText('Vulnerabilities2');
  await expect(scanCard.getByTestId('finding-summary')).toHaveCount(2);
  await expect(scanCard.getByTestId('finding-summary').filter({ hasText: wordlistName })).toContainText(
    'HIGH RISK',
  );
  await expect(scanCard.getByTestId('finding-summary').filter({ hasText: ctOnlyName })).toContainText(
    'HIGH RISK',
  );
  await expect(page.getByRole('button', { name: 'Completed (1)' })).toBeVisible();

  // Server-side search by domain or scan id, case-insensitive; filters by status.
  const scanId = (await scanCard.locator('.font-mono').first().getAttribute('title')) ?? '';
  const search = page.getByPlaceholder('Search by domain or scan ID...');
  await search.fill(domain.toUpperCase());
  await expect(page.getByTestId('scan-card')).toHaveCount(1);
  await search.fill(scanId.slice(0, 8));
  await expect(page.getByTestId('scan-card')).toHaveCount(1);
  await search.fill('no-such-scan');
  await expect(page.getByRole('heading', { name: 'No matching scans' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear Search' }).click();
  await expect(page.getByTestId('scan-card')).toHaveCount(1);
  await page.getByRole('button', { name: 'Failed (0)' }).click();
  await expect(page.getByRole('heading', { name: 'No matching scans' })).toBeVisible();
  await page.getByRole('button', { name: 'Show All Scans' }).click();
  await expect(page.getByTestId('scan-card')).toHaveCount(1);

  // The details: each finding's status explained, its evidence chain, proof and fix.
  await scanCard.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: `Scan details: ${domain}` });
  const findings = details.getByTestId('finding-card');
  await expect(findings).toHaveCount(2);
  const ctFinding = findings.filter({ hasText: ctOnlyName });
  await expect(ctFinding).toContainText('Claimable');
  await expect(ctFinding).toContainText('Azure App Service');
  const chain = ctFinding.getByRole('list', { name: 'Evidence chain' }).getByRole('listitem');
  await expect(chain).toHaveCount(5);
  await expect(chain.nth(1)).toContainText('CNAME');
  await expect(chain.nth(2)).toContainText(`dw-${stamp}-legacy.azurewebsites.net`);
  await expect(chain.nth(4)).toContainText('NXDOMAIN');
  await expect(ctFinding).toContainText('Proof of concept');
  await expect(ctFinding).toContainText('How to fix it');
  expect(await blockingViolations(page)).toEqual([]);
  // Its history across scans, and accepting it as a risk with a note (it stops alerting).
  const history = details.getByTestId('finding-history');
  await expect(history).toHaveCount(2);
  const ctHistory = details
    .getByTestId('finding-item')
    .filter({ hasText: ctOnlyName })
    .getByTestId('finding-history');
  await expect(ctHistory).toContainText('First seen');
  await ctHistory.getByRole('button', { name: 'Accept this risk…' }).click();
  await ctHistory.getByLabel('Why is this risk acceptable?').fill('Legacy portal, shut down next week');
  await ctHistory.getByRole('button', { name: 'Accept risk' }).click();
  await expect(ctHistory).toContainText('Accepted risk');
  await expect(ctHistory).toContainText('Legacy portal, shut down next week');
  await ctHistory.getByRole('button', { name: 'Undo' }).click();
  await expect(ctHistory.getByRole('button', { name: 'Accept this risk…' })).toBeVisible();
  await details.getByRole('button', { name: 'Close' }).click();

  // The report: scan-report-{domain}-{id}.json with both findings and the names checked.
  const downloading = page.waitForEvent('download');
  await scanCard.getByRole('button', { name: `Download report for ${domain}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^scan-report-${domain.replace(/\./g, '\\.')}-[0-9a-f-]{36}\\.json$`),
  );
  const report = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(Object.keys(report)).toEqual(['scanId', 'domain', 'timestamp', 'results', 'vulnerabilities']);
  expect(report.vulnerabilities.map((f: { subdomain: string }) => f.subdomain).sort()).toEqual(
    [ctOnlyName, wordlistName].sort(),
  );
  expect(report.results.subdomains).toContain(ctOnlyName);
  await expect(page.getByRole('status').filter({ hasText: 'Report Downloaded' })).toBeVisible();

  // The same scan as SARIF 2.1.0, and the open findings as CSV, for other tools.
  const sarifDownload = page.waitForEvent('download');
  await scanCard.getByRole('button', { name: `Download SARIF for ${domain}` }).click();
  const sarif = JSON.parse(await readFile(await (await sarifDownload).path(), 'utf8'));
  expect(sarif.version).toBe('2.1.0');
  expect(sarif.runs[0].results).toHaveLength(2);
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Open Findings (CSV)' }).click();
  const csv = (await readFile(await (await csvDownload).path(), 'utf8')).trim().split('\r\n');
  expect(csv[0]).toMatch(/^domain,subdomain,record_type,target,service,status/);
  expect(
    csv
      .slice(1)
      .map((line) => line.split(',')[1])
      .sort(),
  ).toEqual([ctOnlyName, wordlistName].sort());

  // Re-scan (the day's one manual scan of the Free plan), then cancel it while it runs.
  await scanCard.getByRole('button', { name: 'Re-scan' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `New security scan started for ${domain}` }),
  ).toBeVisible();
  const second = page.getByTestId('scan-card').first();
  await expect(second.getByRole('button', { name: 'Running...' })).toBeDisabled({ timeout: 10_000 });
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(second.getByTestId('scan-status')).toHaveText('Cancelled', { timeout: 15_000 });

  // The plan's daily quota is used: another start is refused, not failed, with the server's reason.
  await second.getByRole('button', { name: 'Re-scan' }).click();
  const refused = page.getByRole('status').filter({ hasText: 'Daily Scans Used' });
  await expect(refused).toContainText('You have used the 1 scan of the Free plan for today');
  await expect(page.getByRole('status').filter({ hasText: 'Scan Failed' })).toHaveCount(0);

  // The domain card shows the last scan; New Scan offers this verified domain.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(page.getByTestId('scan-panel')).toContainText('Cancelled');
  await expect(page.getByTestId('data-age')).toHaveText(/^Updated /);
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  await page.getByRole('button', { name: 'New Scan' }).click();
  const newScan = page.getByRole('dialog', { name: 'New Scan' });
  await expect(newScan.getByRole('radio', { name: domain })).toBeChecked();
  await expect(newScan.getByLabel('Certificate Transparency')).toBeChecked();
  await newScan.getByRole('button', { name: 'Cancel' }).click();

  // The trend of open findings over the domain's completed scans: a chart, and the same as a table.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await page.getByRole('button', { name: 'Show trend' }).click();
  const trend = page.getByTestId('domain-trend');
  await expect(trend).toContainText('Open findings, last 90 days');
  await expect(trend).toContainText(/Latest scan \(.*\): \d+ claimable/);
  await trend.getByText('The figures as a table').click();
  await expect(trend.getByRole('row')).not.toHaveCount(0);
  await page.getByRole('button', { name: 'Hide trend' }).click();

  // The verified card's menu: Visit Domain, Scan Settings (PATCH), Force Rescan, Remove Domain.
  const menuButton = page.getByRole('button', { name: `Actions for ${domain}` });
  await menuButton.click();
  const menu = page.getByRole('menu', { name: `Actions for ${domain}` });
  await expect(menu.getByRole('menuitem', { name: 'Visit Domain' })).toHaveAttribute(
    'href',
    `https://${domain}`,
  );
  await expect(menu.getByRole('menuitem', { name: 'Visit Domain' })).toHaveAttribute('target', '_blank');
  await expect(menu.getByRole('menuitem', { name: 'Visit Domain' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Force Rescan' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Remove Domain' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await menu.getByRole('menuitem', { name: 'Scan Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Scan Settings' });
  await settings.getByLabel('Scan Frequency').selectOption('manual');
  await expect(settings.getByLabel('E-mail alerts')).toBeChecked();
  await settings.getByLabel('Alert on').selectOption('claimable');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toHaveCount(0);
  await expect(page.getByTestId('domain-card')).toContainText('Next ScanManual only');
  await menuButton.click();
  await menu.getByRole('menuitem', { name: 'Scan Settings' }).click();
  await expect(settings.getByLabel('Alert on')).toHaveValue('claimable');
  await settings.getByRole('button', { name: 'Cancel' }).click();

  await menuButton.click();
  await menu.getByRole('menuitem', { name: 'Force Rescan' }).click();
  await expect(page.getByTestId('scan-panel').getByRole('alert')).toContainText('Daily Scans Used');
  await expect(page.getByTestId('scan-panel').getByRole('alert')).toContainText(
    'the 1 scan of the Free plan for today',
  );

  await menuButton.click();
  await menu.getByRole('menuitem', { name: 'Remove Domain' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Domain' })
    .getByRole('button', { name: 'Remove Domain' })
    .click();
  await expect(page.getByRole('heading', { name: 'Ready to secure your domains?' })).toBeVisible();
});
