import { expect, test } from '@playwright/test';
import { fingerprintsLine } from '../../src/model/fingerprint-sources.ts';
import { ONLY_CREATOR_WORDS } from '../../src/model/proof.ts';
import { CATALOGUE_SOURCES } from '../../src/scanner/fingerprints/catalogue.ts';
import {
  addVerifiedDomain,
  blockingViolations,
  providerAnswer,
  publishCt,
  publishDns,
  signInToDashboard,
} from '../helpers/dashboard-e2e.ts';

test.describe.configure({ timeout: 180_000 });

test('a proven finding shows its proof in one plain line; a taken name and a name only its creator can create are review', async ({
  page,
  context,
}) => {
  const stamp = `${Date.now()}`.slice(-8);
  const domain = `proof-${stamp}.dev`;
  const free = `acme-staging-${stamp}`;
  const held = `acme-old-${stamp}`;
  // Three CNAMEs to names gone from DNS: Azure says the first is free and the second taken; the
  // third carries an Elastic Beanstalk eba- token, which nobody but its creator can create again.
  await publishDns(`staging.${domain}`, 'CNAME', `${free}.azurewebsites.net`);
  await publishDns(`old.${domain}`, 'CNAME', `${held}.azurewebsites.net`);
  await publishDns(`eb.${domain}`, 'CNAME', `web.eba-a1b2c3d4.us-east-1.elasticbeanstalk.com`);
  await publishCt(domain, [`staging.${domain}`, `old.${domain}`, `eb.${domain}`]);
  await providerAnswer(held, 'taken');

  await signInToDashboard(page, context, { email: `pat.${stamp}@${domain}`, name: 'Pat Proof' });
  await addVerifiedDomain(page, domain);

  await page.getByRole('button', { name: 'Scans', exact: true }).click();
  const scanCard = page.getByTestId('scan-card').first();
  await expect(scanCard.getByTestId('scan-status')).toHaveText('Completed', { timeout: 90_000 });
  await scanCard.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: `Scan details: ${domain}` });
  const card = (name: string) => details.getByTestId('finding-card').filter({ hasText: `${name}.${domain}` });

  // What the verdicts rest on, as the worker recorded it: the catalogue's sources, each dated.
  await expect(details.getByTestId('how-we-decide')).toContainText(fingerprintsLine(CATALOGUE_SOURCES) ?? '');

  const proven = card('staging');
  await expect(proven).toContainText('Claimable');
  await expect(proven.getByTestId('finding-proof')).toHaveText(
    new RegExp(`^Azure says the name ${free} is free to register, checked (just now|1 minute ago)$`),
  );

  const taken = card('old');
  await expect(taken).toContainText('Review');
  await expect(taken.getByTestId('finding-proof')).toHaveText(
    new RegExp(`^Azure says the name ${held} is taken, checked (just now|1 minute ago)$`),
  );

  const unique = card('eb');
  await expect(unique).toContainText('Review');
  await expect(unique).toContainText(ONLY_CREATOR_WORDS);
  await expect(unique.getByTestId('finding-proof')).toHaveText('Not claimable as far as anyone can show');
  expect(await blockingViolations(page)).toEqual([]);
});
