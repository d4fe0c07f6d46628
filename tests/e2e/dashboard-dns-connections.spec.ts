import { expect, test } from '@playwright/test';
import {
  addVerifiedDomain,
  blockingViolations,
  cloudflareRecord,
  cloudflareRevoke,
  cloudflareStatus,
  cloudflareZone,
  delegate,
  openDnsSettings,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 240_000 });

test('connect Cloudflare, monitor its zone, and a record added there becomes a finding after Sync now', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const zone = `cfzone-${stamp}.dev`;
  // A zone just added at Cloudflare, which the domain is not delegated to yet.
  const { token, nameServers } = await cloudflareZone(
    zone,
    [
      { name: zone, type: 'A', ttl: 300, data: '127.0.95.10' },
      { name: `www.${zone}`, type: 'CNAME', ttl: 300, data: zone },
    ],
    'pending',
  );
  // Cloudflare serves the zone it holds.
  await publishDns(zone, 'A', '127.0.95.10');
  await publishDns(`www.${zone}`, 'CNAME', zone);
  await signInToDashboard(page, context, { email: `cleo.${stamp}@${zone}`, name: 'Cleo Cloudflare' });

  // The failure e-mail's link opens this tab directly.
  await page.goto('/dashboard/settings?tab=dns');
  const panel = page.getByTestId('dns-connections-panel');
  await expect(panel.getByTestId('dns-connections-empty')).toBeVisible({ timeout: 15_000 });
  const form = panel.getByRole('form', { name: 'Connect a DNS provider' });
  await expect(form.getByLabel('Provider')).toHaveValue('cloudflare');
  await expect(form.getByTestId('provider-guide')).toContainText('Zone:Read and DNS:Read');
  await form.getByLabel('Provider').selectOption('route53');
  await expect(form.getByTestId('provider-policy')).toContainText('route53:ListResourceRecordSets');
  await expect(form.getByTestId('provider-policy')).toContainText('route53:GetHostedZone');
  await expect(form.getByLabel('Secret access key')).toHaveAttribute('type', 'password');
  await form.getByLabel('Provider').selectOption('cloudflare');
  expect(await blockingViolations(page)).toEqual([]);

  // A token the provider refuses: a plain sentence with its own words under it, and nothing stored.
  await form.getByLabel('API token').fill('not-the-token');
  await form.getByRole('button', { name: 'Connect Cloudflare' }).click();
  await expect(form.getByRole('alert')).toContainText('Cloudflare did not accept the credential');
  await expect(form.getByTestId('provider-words')).toHaveText(
    'The provider said: Invalid access token (code 9109)',
  );
  await expect(panel.getByTestId('dns-connections-empty')).toBeVisible();

  await form.getByLabel('Label (optional)').fill('Cloudflare production');
  await form.getByLabel('API token').fill(token);
  await form.getByRole('button', { name: 'Connect Cloudflare' }).click();
  const connection = panel.getByTestId('dns-connection');
  await expect(connection).toContainText('Cloudflare production');
  await expect(connection).toContainText(`…${token.slice(-4)}`);
  await expect(connection).toContainText(`added by cleo.${stamp}@${zone}`);
  await expect(form.getByLabel('API token')).toHaveValue('');

  await connection.getByRole('button', { name: `Monitor ${zone}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Zone Linked' })).toContainText(
    'not proof of ownership yet',
  );
  await expect(connection.getByTestId('dns-zone').filter({ hasText: zone })).toContainText('Monitored');
  expect(await blockingViolations(page)).toEqual([]);

  // A zone listing proves nothing: the domain waits, with its records kept, and says why.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  const card = page.getByTestId('domain-card').filter({ hasText: zone });
  await expect(card.getByTestId('domain-status')).toHaveText('Pending');
  await expect(card.getByTestId('zone-not-proof')).toContainText(
    'Linked to your Cloudflare zone, not yet proof of ownership.',
  );
  await expect(card.getByTestId('zone-not-proof')).toContainText('not active (status pending)');
  await expect(card.getByTestId('scan-panel')).toHaveCount(0);
  expect(await blockingViolations(page)).toEqual([]);

  // The owner delegates the domain to Cloudflare, which activates the zone; the next sync sees it.
  await delegate(zone, nameServers);
  await cloudflareStatus(zone, 'active');
  await openDnsSettings(page);
  await page.getByTestId('dns-connection').getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sync Queued' })).toBeVisible();

  // The zone now proves the domain, with its inventory read from Cloudflare; its first scan runs.
  await expect(async () => {
    await page.getByRole('button', { name: 'Scans', exact: true }).click();
    await page.getByRole('button', { name: 'Domains', exact: true }).click();
    await expect(card.getByTestId('domain-status')).toHaveText('Verified', { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(card.getByTestId('ownership-proof')).toHaveText('Delegated to this Cloudflare zone');
  await expect(card.getByTestId('inventory-line')).toHaveText(/^2 records from Cloudflare, read /);
  await expect(card.getByTestId('scan-panel')).toContainText('Completed', { timeout: 90_000 });

  // A record added at the provider, dangling into an Azure name that no longer exists.
  const forgotten = `forgotten-${stamp}.${zone}`;
  const target = `dw-${stamp}-forgotten.azurewebsites.net`;
  await cloudflareRecord(zone, { name: forgotten, type: 'CNAME', ttl: 300, data: target });
  await publishDns(forgotten, 'CNAME', target);

  await openDnsSettings(page);
  await page.getByTestId('dns-connection').getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sync Queued' })).toBeVisible();

  // The sync reads the new record and scans just that name: the finding names the zone as its source.
  const finding = page.getByTestId('finding-summary').filter({ hasText: forgotten });
  await expect(async () => {
    await page.getByRole('button', { name: 'Domains', exact: true }).click();
    await page.getByRole('button', { name: 'Scans', exact: true }).click();
    await expect(finding.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [2_000] });
  await expect(finding.first().getByTestId('finding-sources')).toContainText('zone');
  await expect(finding.first()).toContainText('HIGH RISK');

  // The domain's inventory has the record, and its history says it was added.
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(card.getByTestId('inventory-line')).toHaveText(/^3 records from Cloudflare, read /);
  await card.getByRole('button', { name: 'Records and history' }).click();
  const records = page.getByRole('dialog', { name: `Records of ${zone}` });
  // The records are read when the dialog opens; on a loaded machine the worker's scan of the
  // change shares the server's event loop, so the read gets the wait of a server round trip.
  await expect(records).toBeVisible({ timeout: 30_000 });
  await expect(records.getByTestId('record-history')).toContainText(`added`);
  await expect(records.getByTestId('record-history')).toContainText(`${forgotten} 300 CNAME ${target}`);
  await expect(records.getByTestId('record-table').getByRole('row')).toHaveCount(4);
  expect(await blockingViolations(page)).toEqual([]);
  await records.getByRole('button', { name: 'Close' }).click();

  // The token is revoked at Cloudflare: the next sync fails, and the connection says so in its words.
  await cloudflareRevoke(zone);
  await openDnsSettings(page);
  await page.getByTestId('dns-connection').getByRole('button', { name: 'Sync now' }).click();
  // The panel follows the queued read until it shows.
  await expect(page.getByTestId('dns-last-read')).toContainText('reading the zones now...');
  const syncError = page.getByTestId('dns-sync-error');
  await expect(syncError).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('dns-last-read')).not.toContainText('reading the zones now...');
  await expect(syncError.getByTestId('provider-words')).toHaveText(
    'The provider said: Invalid access token (code 9109)',
  );
  await expect(syncError).toContainText(/^Sync failing since .+: Cloudflare did not accept the credential/);
  expect(await blockingViolations(page)).toEqual([]);

  // Removing the connection deletes the credential; the domain stays.
  await page.getByRole('button', { name: 'Remove Cloudflare production' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove DNS Connection' });
  await expect(confirm).toContainText('The credential is deleted from DangleWatch at once');
  await confirm.getByRole('button', { name: 'Remove Connection' }).click();
  await expect(page.getByTestId('dns-connections-empty')).toBeVisible();
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await expect(page.getByTestId('domain-card').filter({ hasText: zone })).toBeVisible();
});

test('Add Domain: connect the DNS provider instead of a TXT record, and monitor its zone', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const zone = `cfadd-${stamp}.dev`;
  const { token, nameServers } = await cloudflareZone(zone, [
    { name: zone, type: 'A', ttl: 300, data: '127.0.95.20' },
  ]);
  await delegate(zone, nameServers);
  await signInToDashboard(page, context, { email: `ada.${stamp}@${zone}`, name: 'Ada Add' });

  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  await page.getByRole('button', { name: 'Connect your DNS provider instead' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Your DNS Provider' });
  await dialog.getByLabel('API token').fill(token);
  await dialog.getByRole('button', { name: 'Connect Cloudflare' }).click();
  await dialog.getByRole('button', { name: `Monitor ${zone}` }).click();
  await expect(dialog).toHaveCount(0);
  const card = page.getByTestId('domain-card').filter({ hasText: zone });
  await expect(card.getByTestId('domain-status')).toHaveText('Verified');
  await expect(card.getByTestId('ownership-proof')).toHaveText('Delegated to this Cloudflare zone');
  await expect(card.getByTestId('inventory-line')).toHaveText(/^1 record from Cloudflare, read /);
});

test('a zone file uploaded for a TXT-verified domain becomes its inventory; a broken one names its line', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `zonefile-${stamp}.dev`;
  await signInToDashboard(page, context, { email: `zed.${stamp}@${domain}`, name: 'Zed Zone' });
  await addVerifiedDomain(page, domain);
  const card = page.getByTestId('domain-card').filter({ hasText: domain });
  await expect(card.getByTestId('inventory-line')).toHaveText(
    'No record inventory: scans find names by discovery.',
  );

  const upload = card.getByLabel('Upload zone file');
  // 250 more records: the dialog reads them a page at a time.
  const hosts = Array.from({ length: 250 }, (_, n) => `h${n} IN A 127.0.95.${n}\n`).join('');
  const zoneFile = (lastLine: string) => ({
    name: `${domain}.zone`,
    mimeType: 'text/plain',
    buffer: Buffer.from(
      `$ORIGIN ${domain}.\n$TTL 300\n@ IN A 127.0.95.20\nwww IN CNAME @\n${lastLine}\n${hosts}`,
    ),
  });
  await upload.setInputFiles(zoneFile('broken IN A 999.1.1.1'));
  await expect(card.getByTestId('zone-file-error')).toContainText('Zone file line 5');
  await upload.setInputFiles(zoneFile('old IN CNAME @'));
  await expect(card.getByTestId('inventory-line')).toHaveText(/^253 records from a zone file uploaded /);
  await expect(card.getByTestId('zone-file-error')).toHaveCount(0);
  await card.getByRole('button', { name: 'Records and history' }).click();
  const records = page.getByRole('dialog', { name: `Records of ${domain}` });
  const rows = records.getByTestId('record-table').getByRole('row');
  const shown = records.getByTestId('records-shown');
  await expect(shown).toHaveText('Showing 100 of 253');
  await expect(rows).toHaveCount(101);
  await records.getByRole('button', { name: 'Load more' }).click();
  await expect(shown).toHaveText('Showing 200 of 253');
  await records.getByRole('button', { name: 'Load more' }).click();
  await expect(shown).toHaveText('Showing 253 of 253');
  await expect(rows).toHaveCount(254);
  await expect(records.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  expect(await blockingViolations(page)).toEqual([]);

  // Searching and filtering ask the server, which counts what they keep.
  await records.getByLabel('Search records by name').fill('OLD');
  await expect(shown).toHaveText('Showing 1 of 1');
  await expect(records.getByTestId('record-table')).toContainText(`old.${domain}`);
  await records.getByLabel('Search records by name').fill('');
  await records.getByLabel('Record type').selectOption('CNAME');
  await expect(shown).toHaveText('Showing 2 of 2');
  await expect(records.getByTestId('record-table')).toContainText(`www.${domain}`);
});
