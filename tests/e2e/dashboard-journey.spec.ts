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
  const ctOnlyName = `legacy-portal-${stamp}.${domain}`;
  // A dangling CNAME into an Azure name that no longer exists, which only CT knows about.
  await publishDns(ctOnlyName, 'CNAME', `dw-${stamp}-legacy.cloudapp.net`);
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
  await expect(scanCard).toContainText('Vulnerabilities1');
  await expect(scanCard.getByTestId('finding-summary')).toHaveCount(1);
  await expect(scanCard).toContainText(ctOnlyName);
  await expect(scanCard).toContainText('HIGH RISK');
  await expect(page.getByRole('button', { name: 'Completed (1)' })).toBeVisible();

  // The details: each finding's status explained, its evidence chain, proof and fix.
  await scanCard.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: `Scan details: ${domain}` });
  const findings = details.getByTestId('finding-card');
  await expect(findings).toHaveCount(1);
  const ctFinding = findings.filter({ hasText: ctOnlyName });
  await expect(ctFinding).toContainText('Claimable');
  await expect(ctFinding).toContainText('Azure Cloud Services');
  const chain = ctFinding.getByRole('list', { name: 'Evidence chain' }).getByRole('listitem');
  await expect(chain).toHaveCount(5);
  await expect(chain.nth(1)).toContainText('CNAME');
  await expect(chain.nth(2)).toContainText(`dw-${stamp}-legacy.cloudapp.net`);
  await expect(chain.nth(4)).toContainText('NXDOMAIN');
  await expect(ctFinding).toContainText('Proof of concept');
  await expect(ctFinding).toContainText('How to fix it');
  expect(await blockingViolations(page)).toEqual([]);
  await details.getByRole('button', { name: 'Close' }).click();

  // The report: scan-report-{domain}-{id}.json with the finding and the names checked.
  const downloading = page.waitForEvent('download');
  await scanCard.getByRole('button', { name: `Download report for ${domain}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^scan-report-${domain.replace(/\./g, '\\.')}-[0-9a-f-]{36}\\.json$`),
  );
  const report = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(Object.keys(report)).toEqual(['scanId', 'domain', 'timestamp', 'results', 'vulnerabilities']);
  expect(report.vulnerabilities.map((f: { subdomain: string }) => f.subdomain)).toEqual([ctOnlyName]);
  expect(report.results.subdomains).toContain(ctOnlyName);
  await expect(page.getByRole('status').filter({ hasText: 'Report Downloaded' })).toBeVisible();

  // Re-scan (the day's one manual scan of the Free plan), then cancel it while it runs.
  await scanCard.getByRole('button', { name: 'Re-scan' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `New security scan started for ${domain}` }),
  ).toBeVisible();
  const second = page.getByTestId('scan-card').first();
  await expect(second.getByRole('button', { name: 'Running...' })).toBeDisabled({ timeout: 10_000 });
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(second.getByTestId('scan-status')).toHaveText('Cancelled', { timeout: 15_000 });

  // The plan's daily quota is used: another start fails with the server's reason.
  await second.getByRole('button', { name: 'Re-scan' }).click();
  const failed = page.getByRole('status').filter({ hasText: 'Scan Failed' });
  await expect(failed).toContainText('scans of the Free plan for today');

  // The domain card shows the last scan; New Scan offers this verified domain.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(page.getByTestId('scan-panel')).toContainText('Cancelled');
  await expect(page.getByTestId('data-age')).toHaveText(/^Updated /);
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  await page.getByRole('button', { name: 'New Scan' }).click();
  const newScan = page.getByRole('dialog', { name: 'New Scan' });
  await expect(newScan.getByRole('radio', { name: domain })).toBeChecked();
  await expect(newScan.getByLabel('Certificate Transparency')).toBeChecked();
});

// The engine drops a wordlist name whose CNAME target answers NXDOMAIN before detection
// (src/scanner/scan.ts: `source === 'wordlist' && res.status === 'nxdomain'` also matches a CNAME
// chain ending in NXDOMAIN), so `staging → gone.azurewebsites.net` is never reported. Enable this
// once the engine keeps names that have a CNAME chain.
test.fixme('journey: the wordlist finds a dangling CNAME (staging → a deleted Azure web app)', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `wordlist-${stamp}.dev`;
  await publishDns(`staging.${domain}`, 'CNAME', `dw-${stamp}-staging.azurewebsites.net`);
  await signInToDashboard(page, context, { email: `wl.${stamp}@${domain}`, name: 'Wil List' });
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
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  const scanCard = page.getByTestId('scan-card').first();
  await expect(scanCard.getByTestId('scan-status')).toHaveText('Completed', { timeout: 90_000 });
  await expect(scanCard.getByTestId('finding-summary')).toContainText(`staging.${domain}`);
});
