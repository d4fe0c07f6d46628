// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { FindingDetailsDialog } from '../../../src/islands/dashboard/scans/FindingDetailsDialog.tsx';
import { linkedFinding, linkedFindingKey } from '../../../src/lib/dashboard/finding-link.ts';
import type { FindingRecord } from '../../../src/model/contract.ts';
import { findingView } from '../../fixtures/finding.ts';
import { reactRoot } from '../../helpers/react-root.ts';

const KEY = `dw:${'7'.repeat(40)}`;
const record = (key: string, subdomain: string): FindingRecord => ({
  id: '3b0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  key,
  domain: 'acme.io',
  finding: findingView(subdomain),
  firstSeenAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-25T11:00:00.000Z',
  resolvedAt: null,
  accepted: null,
  openedByScanId: null,
  resolvedByScanId: null,
});

const dom = reactRoot();

describe('a finding link opens the finding', () => {
  it('reads the key a ticket’s link carries, beside the section and the workspace', () => {
    expect(linkedFindingKey(`?section=scans&finding=${encodeURIComponent(KEY)}&workspace=w1`)).toBe(KEY);
    expect(linkedFindingKey(`?section=scans&finding=${KEY}`)).toBe(KEY);
    expect(linkedFindingKey('?section=scans&scan=abc')).toBeNull();
    expect(linkedFindingKey('?section=scans&finding=')).toBeNull();
  });

  it('opens the finding the key names, and says why when the workspace holds none', () => {
    const mine = record(KEY, 'old.acme.io');
    expect(linkedFinding(KEY, [record(`dw:${'8'.repeat(40)}`, 'x.acme.io'), mine])).toEqual({ record: mine });
    const gone = linkedFinding(KEY, []);
    expect(gone).toMatchObject({ title: 'Finding not found in this workspace' });
    expect('description' in gone && gone.description).toContain(KEY);
    expect('description' in gone && gone.description).toMatch(/another workspace/);
    // The workspace is named, so a member of several sees which one was searched.
    const named = linkedFinding(KEY, [], 'Acme Security');
    expect('description' in named && named.description).toContain(
      'was not found in this workspace (Acme Security)',
    );
  });

  it('the dialog shows the finding’s report, its state and key, and its history', async () => {
    await act(async () =>
      dom.root.render(<FindingDetailsDialog record={record(KEY, 'old.acme.io')} onClose={() => {}} />),
    );
    const dialog = dom.container.querySelector('dialog');
    expect(dialog?.hasAttribute('open')).toBe(true);
    const words = dialog?.textContent ?? '';
    expect(words).toContain('Finding: old.acme.io');
    expect(words).toContain(`acme.io · open · key ${KEY}`);
    expect(words).toContain('gone.herokuapp.com');
    expect(dom.container.querySelector('[data-testid="linked-finding"]')).not.toBeNull();
  });
});
