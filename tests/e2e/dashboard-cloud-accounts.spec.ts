import { expect, test } from '@playwright/test';
import {
  addVerifiedDomain,
  awsHold,
  awsRelease,
  blockingViolations,
  publishCt,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';
import { DESKTOP, PHONE } from '../helpers/viewports.ts';

test.describe.configure({ timeout: 300_000 });

/**
 * Connect an AWS account (the loopback fake), read it while it holds an Elastic IP, read it again
 * after it released the address, and a record of a monitored domain still pointing there is found
 * as likely, "once yours", with its last sighting; the owner accepts it with a reason.
 */
test('connect AWS, sync, a released address is found as likely with its last sighting, and accepted', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `cloud-${stamp}.dev`;
  const ip = `127.0.90.${(Number(stamp) % 250) + 1}`;
  const name = `old-api.${domain}`;
  const key = await awsHold(ip, `eipalloc-${stamp}`);
  await signInToDashboard(page, context, { email: `ava.${stamp}@${domain}`, name: 'Ava Aws' });

  await page.goto('/dashboard/settings?tab=cloud');
  const panel = page.getByTestId('cloud-accounts-panel');
  await expect(panel.getByTestId('cloud-accounts-empty')).toBeVisible({ timeout: 15_000 });
  const form = panel.getByRole('form', { name: 'Connect a cloud account' });
  await expect(form).toContainText('ec2:DescribeAddresses');
  await expect(form.getByLabel('Secret access key')).toHaveAttribute('type', 'password');
  expect(await blockingViolations(page)).toEqual([]);

  // A secret AWS refuses: a plain sentence with its own words under it, and nothing stored.
  await form.getByLabel('Access key ID').fill(key.accessKeyId);
  await form.getByLabel('Secret access key').fill('not-the-secret');
  await form.getByRole('button', { name: 'Connect AWS' }).click();
  await expect(form.getByRole('alert')).toContainText('AWS did not accept the credential');
  await expect(form.getByTestId('provider-words')).toContainText('SignatureDoesNotMatch');
  await expect(panel.getByTestId('cloud-accounts-empty')).toBeVisible();

  await form.getByLabel('Label (optional)').fill('Production');
  await form.getByLabel('Secret access key').fill(key.secretAccessKey);
  await form.getByRole('button', { name: 'Connect AWS' }).click();
  const account = panel.getByTestId('cloud-account');
  await expect(account).toContainText('Production');
  await expect(account).toContainText(`…${key.accessKeyId.slice(-4)}`);
  // The first read, queued at connection, shows the Elastic IP.
  await expect(account.getByTestId('cloud-last-read')).toContainText(/[1-9]\d* address/, { timeout: 60_000 });
  await expect(account).toContainText('123456789012');
  // The fake key may not simulate its own policy: the card says how to let DangleWatch check it.
  await expect(account.getByTestId('cloud-rights-unchecked')).toContainText('iam:SimulatePrincipalPolicy');

  // A blank grace period is refused with its range, at a phone's width as at a desktop's, not saved as 0.
  const grace = account.getByLabel('Grace period (hours)');
  await grace.fill('');
  await page.setViewportSize(PHONE);
  await account.getByRole('button', { name: 'Save' }).click();
  const refusal = account.getByRole('alert').filter({ hasText: 'Give the grace period' });
  await expect(refusal).toHaveText('Give the grace period: a whole number of hours from 0 to 720.');
  // Beside the field, where the phone's screen is, and named as the field's description.
  await expect(refusal).toBeInViewport();
  await expect(grace).toHaveAttribute('aria-invalid', 'true');
  await expect(grace).toHaveAccessibleDescription(
    'Give the grace period: a whole number of hours from 0 to 720.',
  );
  await page.setViewportSize(DESKTOP);
  await expect(refusal).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Grace Period Saved' })).toHaveCount(0);

  // The address is released; the owner wants no grace period, and reads the account again.
  await awsRelease(ip);
  await account.getByLabel('Grace period (hours)').fill('0');
  await account.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Grace Period Saved' })).toBeVisible();
  await account.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sync Queued' })).toBeVisible();
  await expect(account.getByTestId('cloud-last-read')).not.toContainText('reading the account now', {
    timeout: 60_000,
  });
  // The inventory remembers the address: released, with its last sighting.
  await account.getByRole('button', { name: 'Inventory' }).click();
  const inventory = account.getByTestId('cloud-inventory');
  await expect(inventory.getByRole('listitem').filter({ hasText: ip })).toContainText(
    `elastic-ip eipalloc-${stamp} · us-east-1 · released, last seen`,
  );
  expect(await blockingViolations(page)).toEqual([]);

  // A record of the domain still points there; certificate logs name it.
  await publishDns(name, 'A', ip);
  await publishDns(domain, 'A', '127.0.0.1');
  await publishCt(domain, [name]);
  await page.getByRole('button', { name: 'Domains', exact: true }).click();
  await addVerifiedDomain(page, domain);

  const card = page.getByTestId('domain-card').filter({ hasText: domain });
  await expect(card.getByTestId('scan-panel')).toContainText('Completed', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  const scan = page
    .getByTestId('scan-card')
    .filter({ hasText: domain })
    .filter({ hasText: 'Completed' })
    .first();
  await scan.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: `Scan details: ${domain}` });
  const item = details.getByTestId('finding-item').filter({ hasText: name });
  await expect(item).toContainText('Likely');
  await expect(item).toContainText('This address was once yours (last seen');
  await expect(item).toContainText(ip);
  expect(await blockingViolations(page)).toEqual([]);

  // It is theirs at another host: accepted, with the reason.
  const history = item.getByTestId('finding-history');
  await history.getByRole('button', { name: 'Accept this risk…' }).click();
  await history.getByLabel('Why is this risk acceptable?').fill('Moved to the staging account, same address');
  await history.getByRole('button', { name: 'Accept risk' }).click();
  await expect(history).toContainText('Accepted risk');
});
