import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScanDetailsDialog } from '../../../src/islands/dashboard/scans/ScanDetailsDialog.tsx';
import type { ScanView } from '../../../src/model/contract.ts';
import { completedScan } from '../../fixtures/scan-view.ts';

const text = (scan: ScanView) =>
  renderToStaticMarkup(<ScanDetailsDialog scan={scan} onClose={() => {}} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const SOURCES = [
  { name: 'BadDNS', url: 'https://github.com/blacklanternsecurity/baddns/tree/373abc9', date: '2026-03-22' },
  {
    name: 'nuclei-templates',
    url: 'https://github.com/projectdiscovery/nuclei-templates',
    date: '2026-11-27',
  },
  { name: 'dnsReaper', url: 'https://github.com/punk-security/dnsReaper', date: '2025-10-04' },
];

describe("the scan view's 'how we decide'", () => {
  it('names the fingerprints the scan used, newest first, each with its date', () => {
    const words = text({ ...completedScan, fingerprints: SOURCES });
    expect(words).toContain('How we decide');
    expect(words).toContain('claimable only when the provider itself says the name is free');
    expect(words).toContain(
      'Fingerprints: nuclei-templates 2026-11-27, BadDNS 2026-03-22, dnsReaper 2025-10-04',
    );
  });

  it('says a scan from before they were recorded did not record them, and borrows no other', () => {
    const words = text({ ...completedScan, fingerprints: null });
    expect(words).toContain('This scan ran before DangleWatch recorded which fingerprints a scan used.');
    expect(words).not.toContain('Fingerprints:');
  });

  it('says nothing of the kind while the scan runs: nothing is decided yet', () => {
    expect(text({ ...completedScan, status: 'running', completed_at: null })).not.toContain('How we decide');
  });
});
