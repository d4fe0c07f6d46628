// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { FindingHistory } from '../../../src/islands/dashboard/scans/FindingHistory.tsx';
import { defaultUntilDate } from '../../../src/model/acceptance.ts';
import type { FindingRecord } from '../../../src/model/contract.ts';
import { findingView } from '../../fixtures/finding.ts';
import { reactRoot } from '../../helpers/react-root.ts';

const record: FindingRecord = {
  id: '3b0c1f6e-2d4a-4c1e-9f7a-1a2b3c4d5e6f',
  key: `dw:${'7'.repeat(40)}`,
  domain: 'acme.io',
  finding: findingView('old.acme.io'),
  firstSeenAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-25T11:00:00.000Z',
  resolvedAt: null,
  accepted: null,
  acceptanceEnded: null,
  openedByScanId: null,
  resolvedByScanId: null,
};

const dom = reactRoot();

const button = (name: RegExp) =>
  [...dom.container.querySelectorAll('button')].find((b) =>
    name.test(b.textContent ?? ''),
  ) as HTMLButtonElement;
const click = (name: RegExp) => act(async () => button(name).click());
const dateInput = () => dom.container.querySelector('input[type="date"]') as HTMLInputElement;
const checkbox = () => dom.container.querySelector('input[type="checkbox"]') as HTMLInputElement;

describe('accepting a finding as a risk', () => {
  it('each opening of the form offers the default date, not the one used last', async () => {
    await act(async () => dom.root.render(<FindingHistory record={record} onChange={() => {}} />));
    await click(/Accept this risk/);
    expect(dateInput().value).toBe(defaultUntilDate(new Date()));
    const today = new Date().toISOString().slice(0, 10);
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(dateInput(), today);
      dateInput().dispatchEvent(new Event('input', { bubbles: true }));
      checkbox().click();
    });
    expect(dateInput().value).toBe(today);
    expect(checkbox().checked).toBe(true);
    // Closed (as Undo closes an acceptance) and opened again: the default, not today.
    await click(/^Cancel$/);
    await click(/Accept this risk/);
    expect(dateInput().value).toBe(defaultUntilDate(new Date()));
    expect(dateInput().value).not.toBe(today);
    expect(checkbox().checked).toBe(false);
  });
});
