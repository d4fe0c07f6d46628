import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  CloudAccountCard,
  CloudInventoryList,
  ConnectCloudForm,
} from '../../../src/islands/dashboard/settings/CloudAccountsPanel.tsx';
import type { CloudAccountView } from '../../../src/model/contract.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const noop = () => {};

const account: CloudAccountView = {
  id: '5c0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  provider: 'aws',
  label: 'Production',
  credentialHint: 'Q7XZ',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSyncAt: '2026-11-25T11:00:00.000Z',
  syncError: null,
  syncErrorDetail: null,
  graceHours: 48,
  accounts: ['123456789012'],
  counts: { addresses: 1, resources: 12 },
  unneededRights: [],
  rightsChecked: true,
  disabled: null,
  answeredBy: 'Olive (olive@acme.io)',
};

const cardHtml = (view: CloudAccountView, reading = false) =>
  renderToStaticMarkup(
    <CloudAccountCard
      account={view}
      disabled={false}
      reading={reading}
      onChanged={noop}
      onSyncQueued={noop}
      onRemove={noop}
    />,
  );

describe('Settings → Cloud', () => {
  it('the connect form starts on AWS: its key fields, the optional role, and the policy to paste', () => {
    const html = renderToStaticMarkup(<ConnectCloudForm onConnected={noop} />);
    const words = text(html);
    expect(html).toContain('aria-label="Connect a cloud account"');
    for (const label of ['AWS', 'Microsoft Azure', 'Google Cloud', 'DigitalOcean'])
      expect(html).toContain(`>${label}</option>`);
    expect(words).toContain('Secret access key');
    expect(html).toMatch(/<input[^>]*type="password"[^>]*>/);
    expect(words).toContain('Role ARN to assume (optional)');
    expect(html).toContain('ec2:DescribeAddresses');
    expect(html).toContain('elasticbeanstalk:DescribeEnvironments');
    expect(html).not.toMatch(/ec2:(Run|Terminate|Release|Associate)/);
    expect(words).toContain('Connect AWS');
  });

  it('each policy box scrolls and is reached by keyboard: focusable and named', () => {
    // The box around each policy: the tag that holds its <pre>.
    const boxes = (html: string) => [...html.matchAll(/(<[^>]*>)<pre/g)].map(([, tag]) => tag as string);
    const form = boxes(renderToStaticMarkup(<ConnectCloudForm onConnected={noop} />));
    const card = boxes(cardHtml({ ...account, rightsChecked: false }));
    expect(form).toHaveLength(2);
    expect(card).toHaveLength(1);
    for (const box of [...form, ...card]) {
      expect(box).toContain('tabindex="0"');
      expect(box).toMatch(/^<section/);
      expect(box).toMatch(/aria-label="The AWS (read|rights-check) policy"/);
    }
  });

  it('an account shows its cloud, hint, ids, last read and what it remembers, with its grace period', () => {
    const html = cardHtml(account);
    const words = text(html);
    expect(words).toContain('AWS · credential …Q7XZ');
    expect(words).toContain('123456789012');
    expect(words).toContain('1 address, 12 resources remembered');
    expect(html).toMatch(/<input[^>]*type="number"[^>]*value="48"/);
    expect(html).toContain('aria-label="Remove Production"');
    expect(words).not.toContain('The last read failed');
    expect(words).not.toContain('can do more than read');
    expect(words).not.toContain('not checked');
    const broad = text(cardHtml({ ...account, provider: 'azure', unneededRights: ['*'] }));
    expect(broad).toContain('This credential can do more than read: *. DangleWatch needs none of these');
    const failing = text(
      cardHtml(
        {
          ...account,
          syncError:
            'AWS DescribeRegions: AuthFailure: AWS was not able to validate the provided access credentials',
        },
        true,
      ),
    );
    expect(failing).toContain('The last read failed: AWS DescribeRegions: AuthFailure');
    expect(failing).toContain('reading the account now...');
  });

  it('says how to let the cloud tell the rights beyond reading, where it did not', () => {
    // AWS would not say: the card gives the statement that lets it, limited to the key's own user and role.
    const closed = text(cardHtml({ ...account, rightsChecked: false }));
    expect(closed).toContain('Rights beyond reading not checked.');
    expect(closed).toContain('iam:SimulatePrincipalPolicy');
    // The card knows the account's id: the policy carries it, ready to paste.
    expect(closed).toContain('arn:aws:iam::123456789012:user/USER_NAME');
    expect(closed).toContain('arn:aws:iam::123456789012:role/ROLE_NAME');
    expect(closed).not.toContain('ACCOUNT_ID');
    // Two accounts, or none known: the placeholder stays rather than a guess.
    for (const accounts of [[], ['123456789012', '210987654321']])
      expect(text(cardHtml({ ...account, accounts, rightsChecked: false }))).toContain(
        'arn:aws:iam::ACCOUNT_ID:user/USER_NAME',
      );
    const ocean = text(cardHtml({ ...account, provider: 'digitalocean', rightsChecked: false }));
    expect(ocean).toContain('DigitalOcean does not let a token read its own scopes');
    expect(ocean).toContain('droplet:read');
    // Before the first read nothing is known yet, and nothing is said.
    expect(text(cardHtml({ ...account, lastSyncAt: null, rightsChecked: false }))).not.toContain(
      'not checked',
    );
  });

  it('the inventory says of each item whether it is held now, or released and last seen when', () => {
    const words = text(
      renderToStaticMarkup(
        <CloudInventoryList
          accountId={account.id}
          initial={{
            items: [
              {
                kind: 'address',
                type: 'elastic-ip',
                value: '203.0.113.7',
                name: 'eipalloc-1',
                region: 'us-east-1',
                firstSeenAt: '2026-11-01T00:00:00.000Z',
                lastSeenAt: '2026-11-20T10:00:00.000Z',
                held: false,
              },
              {
                kind: 'resource',
                type: 'bucket',
                value: 'static-acme.s3.amazonaws.com',
                name: 'static-acme',
                region: null,
                firstSeenAt: '2026-11-01T00:00:00.000Z',
                lastSeenAt: '2026-11-25T11:00:00.000Z',
                held: true,
              },
            ],
            nextCursor: 'next',
          }}
        />,
      ),
    );
    expect(words).toContain('203.0.113.7 elastic-ip eipalloc-1 · us-east-1 · released, last seen');
    expect(words).toContain('static-acme.s3.amazonaws.com bucket static-acme · held now');
    expect(words).toContain('Load more');
  });
});
