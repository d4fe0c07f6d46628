import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DnsConnectionCard } from '../../../src/islands/dashboard/dns/DnsConnectionCard.tsx';
import { CloudAccountCard } from '../../../src/islands/dashboard/settings/CloudAccountsPanel.tsx';
import { ConnectionCard } from '../../../src/islands/dashboard/shared/ConnectionCard.tsx';
import { CONNECTION_MESSAGES } from '../../../src/model/connections.ts';
import type { CloudAccountView, ConnectionView } from '../../../src/model/contract.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const noop = () => {};
const reason = CONNECTION_MESSAGES.answererGone('Mal (mal@acme.io)');
const disabled = { at: '2026-11-26T09:30:00.000Z', reason };

const connection: ConnectionView = {
  id: '3b0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  provider: 'cloudflare',
  label: 'Edge',
  credentialHint: 'x9Qz',
  createdBy: 'mal@acme.io',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastUsedAt: '2026-11-25T11:00:00.000Z',
  lastSyncAt: '2026-11-22T11:00:00.000Z',
  syncError: null,
  syncErrorDetail: null,
  syncFailingSince: null,
  zones: [{ zone: 'acme.dev', domainId: null }],
  disabled: null,
  answeredBy: 'Mal (mal@acme.io)',
};

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
  answeredBy: null,
};

const dnsCard = (view: ConnectionView) =>
  renderToStaticMarkup(
    <DnsConnectionCard
      connection={view}
      disabled={false}
      reading={false}
      onChanged={noop}
      onSyncQueued={noop}
      onRemove={noop}
    />,
  );
const cloudCard = (view: CloudAccountView) =>
  renderToStaticMarkup(
    <CloudAccountCard
      account={view}
      disabled={false}
      reading={false}
      onChanged={noop}
      onSyncQueued={noop}
      onRemove={noop}
    />,
  );

describe('one card for every outside account', () => {
  it('a live one says it is active and who answers for it, with no Re-enable', () => {
    const words = text(dnsCard(connection));
    expect(words).toContain('Active · Mal (mal@acme.io) answers for it');
    expect(words).not.toContain('Re-enable');
    expect(text(cloudCard(account))).toContain('Active · nobody answers for it yet');
  });

  it('a disabled one says since when and why, that nothing goes through it, and offers Re-enable; its reads are off', () => {
    for (const html of [dnsCard({ ...connection, disabled }), cloudCard({ ...account, disabled })]) {
      const words = text(html);
      expect(words).toContain('Disabled ·');
      expect(words).toMatch(
        new RegExp(
          `Disabled Nov 26, 2026, .+: ${reason.replace(/[()]/g, '\\$&')}\\. Nothing is read or sent`,
        ),
      );
      expect(html).toMatch(/<button[^>]*>Re-enable<\/button>/);
      expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sync now<\/button>/);
    }
  });

  it('the last success and the last failure are in plain words, the failure as an alert', () => {
    const html = renderToStaticMarkup(
      <ConnectionCard
        testId="integration"
        title="On call"
        meta={{ what: 'PagerDuty', credentialHint: 'ab12', added: 'connected Nov 20, 2026' }}
        actions={null}
        last="Last delivery Nov 26, 2026: failed"
        lastTestId="integration-last-delivery"
        failure={{ title: 'The last delivery failed:', words: 'PagerDuty refused: Invalid routing key' }}
        connection={{ disabled: null, answeredBy: 'Olga (olga@acme.io)' }}
        onEnable={async () => {}}
      />,
    );
    expect(html).toContain('data-testid="integration-last-delivery"');
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain('The last delivery failed: PagerDuty refused: Invalid routing key');
  });

  it("a failed read is a plain sentence with the provider's own words under it, on both kinds", () => {
    const dns = text(
      dnsCard({
        ...connection,
        syncError: 'Cloudflare did not accept the credential',
        syncErrorDetail: 'Invalid access token (code 9109)',
        syncFailingSince: '2026-11-24T08:00:00.000Z',
      }),
    );
    expect(dns).toMatch(
      /Sync failing since Nov 24, 2026, .+: Cloudflare did not accept the credential The provider said: Invalid access token \(code 9109\)/,
    );
    const cloud = text(
      cloudCard({
        ...account,
        syncError: 'AWS could not be reached; it will be tried again later',
        syncErrorDetail: null,
      }),
    );
    expect(cloud).toContain('The last read failed: AWS could not be reached; it will be tried again later');
    expect(cloud).not.toContain('The provider said');
  });

  it('a caller who may not manage it sees Re-enable switched off', () => {
    const html = renderToStaticMarkup(
      <ConnectionCard
        testId="x"
        title="X"
        meta={{ what: 'X', credentialHint: '', added: '' }}
        actions={null}
        last=""
        lastTestId="x-last"
        failure={null}
        connection={{ disabled, answeredBy: null }}
        onEnable={async () => {}}
        readOnly
      />,
    );
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Re-enable<\/button>/);
  });
});
