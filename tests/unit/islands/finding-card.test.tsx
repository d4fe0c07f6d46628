import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FindingCard } from '../../../src/islands/dashboard/scans/FindingCard.tsx';
import { ScanCard } from '../../../src/islands/dashboard/scans/ScanCard.tsx';
import { EXAMPLE_FINDING } from '../../../src/lib/dashboard/example-finding.ts';
import type { ScanView } from '../../../src/model/contract.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('FindingCard (the dashboard details view and the home page hero)', () => {
  it('renders to static HTML with the status, its sentence, the chain, the proof and the fix', () => {
    const html = renderToStaticMarkup(<FindingCard finding={EXAMPLE_FINDING} headingLevel="h2" />);
    const words = text(html);
    expect(html).toContain('<h2');
    expect(words).toContain('assets.example.com');
    expect(words).toContain('Claimable');
    expect(words).toContain('HIGH RISK');
    expect(words).toContain('a second check confirmed it is unclaimed');
    expect(html).toContain('aria-label="Evidence chain"');
    for (const label of ['Subdomain', 'Record', 'Target', 'Service', 'Answer'])
      expect(words).toContain(label);
    expect(words).toContain(EXAMPLE_FINDING.proofOfConcept);
    expect(words).toContain(EXAMPLE_FINDING.remediation);
    // Plain HTML: no handlers, nothing to hydrate.
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
  it('shows the proof in one line, "not proven" for a finding without one, nothing for one stored before proofs', () => {
    const proven = text(
      renderToStaticMarkup(
        <FindingCard
          finding={{
            ...EXAMPLE_FINDING,
            proof: {
              check: 's3-bucket',
              answer: { name: 'assets.example.com', free: true, said: '404 NoSuchBucket' },
              checkedAt: new Date(Date.now() - 120_000).toISOString(),
            },
          }}
        />,
      ),
    );
    expect(proven).toContain(
      'AWS S3 says the bucket assets.example.com does not exist (NoSuchBucket), checked 2 minutes ago',
    );
    const unproven = renderToStaticMarkup(
      <FindingCard finding={{ ...EXAMPLE_FINDING, status: 'likely', proof: null }} />,
    );
    expect(text(unproven)).toContain('Not proven: no provider answered for this name');
    expect(renderToStaticMarkup(<FindingCard finding={EXAMPLE_FINDING} />)).not.toContain('finding-proof');
  });
});

const base: ScanView = {
  scan_id: '0f8e6c1a-93b2-4d1e-8a7c-5e2b1f0d9c3a',
  domain: 'acme.io',
  status: 'running',
  created_at: '2026-11-22T10:00:00.000Z',
  started_at: '2026-11-22T10:00:01.000Z',
  completed_at: null,
  duration_seconds: null,
  subdomains_scanned: 0,
  vulnerabilities_found: 0,
  critical_count: 0,
  false_positives_filtered: 0,
  error: null,
  progress: { stage: 'resolve', checked: 120, total: 4511 },
  scan_config: { skipDiscovery: false, useCertificateTransparency: true, useMultiStageValidation: true },
  findings: [],
  changes: null,
  partial: false,
  namesChecked: 3,
  fingerprints: null,
};

describe('ScanCard', () => {
  const render = (scan: ScanView) =>
    renderToStaticMarkup(<ScanCard scan={scan} onUpdate={() => {}} onViewDetails={() => {}} />);

  it('a running scan: live progress, a disabled Running... and Cancel, no download or Re-scan', () => {
    const html = render(base);
    const words = text(html);
    expect(words).toContain('0f8e6c1a');
    expect(words).not.toContain('0f8e6c1a-93b2');
    expect(words).toContain('Scanning for dangling subdomains...');
    expect(words).toContain('Resolving records: 120 of 4,511 names checked');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Running\.\.\.<\/button>/);
    expect(words).toContain('Cancel');
    expect(words).not.toContain('Re-scan');
    expect(words).not.toContain('Download');
  });

  it('a pending scan shows the clock icon', () => {
    expect(render({ ...base, status: 'pending', progress: null })).toContain('data-testid="clock-icon"');
  });

  it('a failed scan shows its error and offers Re-scan', () => {
    const words = text(
      render({ ...base, status: 'failed', progress: null, error: 'DNS resolvers did not answer' }),
    );
    expect(words).toContain('DNS resolvers did not answer');
    expect(words).toContain('Re-scan');
  });

  it('a completed scan: duration, counts, each finding with RISK, download and Re-scan', () => {
    const words = text(
      render({
        ...base,
        status: 'completed',
        progress: null,
        completed_at: '2026-11-22T10:02:16.000Z',
        duration_seconds: 135,
        subdomains_scanned: 42,
        vulnerabilities_found: 1,
        findings: [EXAMPLE_FINDING],
      }),
    );
    expect(words).toContain('Duration 2m 15s');
    expect(words).toContain('Subdomains 42');
    expect(words).toContain('Vulnerabilities 1');
    expect(words).toContain('HIGH RISK');
    expect(words).toContain(EXAMPLE_FINDING.target);
    expect(words).toContain('AWS S3');
    expect(words).toContain('Download');
    expect(words).toContain('Re-scan');
  });
});
