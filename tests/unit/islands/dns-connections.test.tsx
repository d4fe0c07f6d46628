import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConnectDnsForm } from '../../../src/islands/dashboard/dns/ConnectDnsForm.tsx';
import { DnsConnectionCard } from '../../../src/islands/dashboard/dns/DnsConnectionCard.tsx';
import { ProviderGuide } from '../../../src/islands/dashboard/dns/ProviderGuide.tsx';
import { RecordsDialog } from '../../../src/islands/dashboard/domains/RecordsDialog.tsx';
import { FindingSummary } from '../../../src/islands/dashboard/scans/FindingSummary.tsx';
import { dnsProvider } from '../../../src/lib/dashboard/dns-providers.ts';
import { EXAMPLE_FINDING } from '../../../src/lib/dashboard/example-finding.ts';
import type { ConnectionView, InventoryView } from '../../../src/model/contract.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const noop = () => {};

const connection: ConnectionView = {
  id: '3b0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  provider: 'cloudflare',
  label: 'Cloudflare production',
  credentialHint: 'x9Qz',
  createdBy: 'ops@acme.io',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastUsedAt: '2026-11-25T11:00:00.000Z',
  lastSyncAt: '2026-11-22T11:00:00.000Z',
  syncError: null,
  syncErrorDetail: null,
  syncFailingSince: null,
  zones: [
    { zone: 'acme.io', domainId: '9d8c7b6a-0000-4000-8000-000000000001' },
    { zone: 'acme.dev', domainId: null },
  ],
  disabled: null,
  answeredBy: 'Olive (olive@acme.io)',
};

describe('Settings → DNS', () => {
  it('the connect form starts on Cloudflare: a password input for the token and its guide', () => {
    const html = renderToStaticMarkup(<ConnectDnsForm onConnected={noop} />);
    const words = text(html);
    expect(html).toContain('aria-label="Connect a DNS provider"');
    for (const label of ['Cloudflare', 'AWS Route 53', 'DigitalOcean', 'Google Cloud DNS'])
      expect(html).toContain(`>${label}</option>`);
    expect(html).toMatch(/<input[^>]*type="password"[^>]*>/);
    expect(html).not.toContain('<textarea');
    expect(words).toContain('Zone:Read and DNS:Read');
    expect(words).toContain('Connect Cloudflare');
  });

  it("each provider's guide shows its least privilege; Route 53's the policy to paste", () => {
    const route53 = renderToStaticMarkup(<ProviderGuide provider={dnsProvider('route53')} />);
    expect(route53).toContain('route53:ListHostedZones');
    expect(route53).toContain('route53:ListResourceRecordSets');
    expect(route53).toContain('<pre');
    const gcloud = text(renderToStaticMarkup(<ProviderGuide provider={dnsProvider('gcloud')} />));
    expect(gcloud).toContain('roles/dns.reader');
    expect(gcloud).not.toContain('IAM policy');
    expect(text(renderToStaticMarkup(<ProviderGuide provider={dnsProvider('digitalocean')} />))).toContain(
      'Read scope only',
    );
  });

  it('a connection shows its provider, hint, who added it and its last read; Monitor only for zones not monitored', () => {
    const html = renderToStaticMarkup(
      <DnsConnectionCard
        connection={connection}
        disabled={false}
        reading={false}
        onChanged={noop}
        onSyncQueued={noop}
        onRemove={noop}
      />,
    );
    const words = text(html);
    expect(words).toContain('Cloudflare production');
    expect(words).toContain('Cloudflare · credential …x9Qz · added by ops@acme.io');
    expect(words).toMatch(/Last read: Nov 22, 2026/);
    expect(html).toContain('aria-label="Monitor acme.dev"');
    expect(html).not.toContain('aria-label="Monitor acme.io"');
    expect(words).toContain('Monitored');
    expect(html).not.toContain('role="alert"');
  });

  it("a failing connection says since when, in the provider's words, as an alert", () => {
    const failing = {
      ...connection,
      syncError: 'Invalid access token',
      syncFailingSince: '2026-11-22T11:00:00.000Z',
    };
    const html = renderToStaticMarkup(
      <DnsConnectionCard
        connection={failing}
        disabled={false}
        reading={false}
        onChanged={noop}
        onSyncQueued={noop}
        onRemove={noop}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(text(html)).toMatch(/Sync failing since Nov 22, 2026, .+: Invalid access token/);
  });

  it('offline, the connection waits: Sync now and Monitor are disabled', () => {
    const html = renderToStaticMarkup(
      <DnsConnectionCard
        connection={connection}
        disabled
        reading={false}
        onChanged={noop}
        onSyncQueued={noop}
        onRemove={noop}
      />,
    );
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sync now<\/button>/);
    expect(html).toMatch(/<button[^>]*aria-label="Monitor acme.dev"[^>]*disabled=""/);
  });
});

describe('a queued sync', () => {
  it('says the zones are being read and holds Sync now until the read shows', () => {
    const html = renderToStaticMarkup(
      <DnsConnectionCard
        connection={connection}
        disabled={false}
        reading
        onChanged={noop}
        onSyncQueued={noop}
        onRemove={noop}
      />,
    );
    expect(text(html)).toContain('reading the zones now...');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sync now<\/button>/);
  });
});

describe('an accepted finding on a scan card', () => {
  it('shows that its risk is accepted, not the risk it was found with', () => {
    const open = text(renderToStaticMarkup(<FindingSummary finding={EXAMPLE_FINDING} />));
    const accepted = text(renderToStaticMarkup(<FindingSummary finding={EXAMPLE_FINDING} accepted />));
    expect(open).toContain('HIGH RISK');
    expect(accepted).toContain('ACCEPTED RISK');
    expect(accepted).not.toContain('HIGH RISK');
  });
});

describe('where findings and records come from', () => {
  it("a finding on a scan card tags its name's sources", () => {
    const html = renderToStaticMarkup(
      <FindingSummary finding={{ ...EXAMPLE_FINDING, sources: ['zone', 'ct'] }} />,
    );
    expect(html).toContain('aria-label="Found through"');
    expect(text(html)).toMatch(/zone CT/);
    expect(
      renderToStaticMarkup(<FindingSummary finding={{ ...EXAMPLE_FINDING, sources: undefined }} />),
    ).not.toContain('Found through');
  });

  it('the records dialog lists the history, newest first as given, and every record', () => {
    const inventory: InventoryView = {
      source: 'cloudflare',
      readAt: '2026-11-25T11:56:00.000Z',
      records: [
        {
          name: 'old.acme.io',
          type: 'CNAME',
          ttl: 300,
          data: 'acme-old.herokuapp.com',
          source: 'cloudflare',
          sources: ['cloudflare', 'zone-file'],
          firstSeenAt: '2026-11-25T11:56:00.000Z',
          lastSeenAt: '2026-11-25T11:56:00.000Z',
        },
      ],
      nextCursor: null,
      total: 1,
      history: [
        {
          at: '2026-11-25T11:56:00.000Z',
          change: 'added',
          name: 'old.acme.io',
          type: 'CNAME',
          ttl: 300,
          data: 'acme-old.herokuapp.com',
          source: 'cloudflare',
        },
        {
          at: '2026-11-24T11:56:00.000Z',
          change: 'removed',
          name: 'gone.acme.io',
          type: 'A',
          ttl: 60,
          data: '192.0.2.7',
          source: 'cloudflare',
        },
      ],
    };
    const html = renderToStaticMarkup(
      <RecordsDialog
        domainName="acme.io"
        inventory={inventory}
        load={async () => inventory}
        summary="1 record from Cloudflare"
        onClose={noop}
      />,
    );
    const words = text(html);
    expect(words).toContain('Records of acme.io');
    expect(words.indexOf('added')).toBeLessThan(words.indexOf('removed'));
    expect(words).toContain('old.acme.io 300 CNAME acme-old.herokuapp.com');
    // A record two sources hold lists both.
    expect(words).toContain('acme-old.herokuapp.com Cloudflare, a zone file');
    expect(words).toContain('gone.acme.io 60 A 192.0.2.7');
    expect(words).toContain('Records (1)');
  });
});
