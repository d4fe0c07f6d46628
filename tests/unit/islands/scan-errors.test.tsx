import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScanDetailsDialog } from '../../../src/islands/dashboard/scans/ScanDetailsDialog.tsx';
import type { ScanView } from '../../../src/model/contract.ts';
import { completedScan } from '../../fixtures/scan-view.ts';

const text = (scan: ScanView) =>
  renderToStaticMarkup(<ScanDetailsDialog scan={scan} onClose={() => {}} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe("the scan view's checks it could not finish", () => {
  it('says which names could not be checked, and why, in a sentence each', () => {
    const words = text({
      ...completedScan,
      subdomains: ['acme.io', 'api.acme.io'],
      errors: [
        { subdomain: 'www.acme.io', stage: 'detect', message: 'the server kept sending after 256 KB' },
        {
          subdomain: 'shop.acme.io',
          stage: 'detect',
          message: 'the TLS handshake did not finish within 8 s',
        },
        { stage: 'discover', message: 'crt.sh: HTTP 503' },
      ],
    });
    expect(words).toContain('Could not finish every check (3)');
    expect(words).toContain('2 names could not be checked: not counted as clean');
    expect(words).toContain('Could not check www.acme.io: the server kept sending after 256 KB');
    expect(words).toContain('Could not check shop.acme.io: the TLS handshake did not finish within 8 s');
    expect(words).toContain('crt.sh: HTTP 503');
  });

  it('shows nothing of the kind for a scan that finished every check', () => {
    expect(text({ ...completedScan, errors: [] })).not.toContain('Could not');
    expect(text(completedScan)).not.toContain('Could not');
  });
});
