// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScanDetailsDialog } from '../../../src/islands/dashboard/scans/ScanDetailsDialog.tsx';
import { ScansSection } from '../../../src/islands/dashboard/scans/ScansSection.tsx';
import { $toasts } from '../../../src/lib/toast.ts';
import { completedScan } from '../../fixtures/scan-view.ts';
import { reactRoot } from '../../helpers/react-root.ts';

// The page's server answers 503 to everything, as while the API is down: the sign-in
// configuration cannot be read, so every call of the dashboard fails.
let server: Server;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'Service unavailable' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `http://127.0.0.1:${port}/dashboard`,
  );
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dom = reactRoot();

beforeEach(() => {
  $toasts.set([]);
});

afterEach(() => {
  window.history.replaceState(null, '', '/dashboard');
});

/** Lets the failed calls settle and React render what they left. */
async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end)
      throw new Error(`not reached within ${timeoutMs} ms:\n${dom.container.textContent}`);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  }
}

const alerts = () =>
  [...dom.container.querySelectorAll('[role="alert"]')].map((node) => node.textContent ?? '');

describe('the scan islands report a failed load', () => {
  it("scan details: the findings' history failing shows an alert whose Try Again asks again", async () => {
    await act(async () => dom.root.render(<ScanDetailsDialog scan={completedScan} onClose={() => {}} />));
    await until(() => alerts().some((text) => text.includes("findings' history could not be loaded")));
    // The scan itself is still shown.
    expect(dom.container.textContent).toContain('acme.io');

    const retry = [...dom.container.querySelectorAll('button')].find((b) => b.textContent === 'Try Again');
    expect(retry).toBeDefined();
    await act(async () => retry?.click());
    // The alert goes while the history is asked for again, and comes back when that fails too.
    expect(alerts().some((text) => text.includes('history'))).toBe(false);
    await until(() => alerts().some((text) => text.includes("findings' history could not be loaded")));
  });

  it('a scan linked from an alert e-mail that cannot be read says so in a toast', async () => {
    window.history.replaceState(null, '', `/dashboard?section=scans&scan=${completedScan.scan_id}`);
    await act(async () => dom.root.render(<ScansSection onGoToDomains={() => {}} />));
    await until(() => $toasts.get().some((t) => t.title === 'Scan not opened'));
    const shown = $toasts.get().find((t) => t.title === 'Scan not opened');
    expect(shown?.variant).toBe('destructive');
    expect(shown?.description).toBeTruthy();
  });

  it('a finding linked from a ticket that cannot be read says so in a toast', async () => {
    window.history.replaceState(null, '', `/dashboard?section=scans&finding=dw:${'7'.repeat(40)}`);
    await act(async () => dom.root.render(<ScansSection onGoToDomains={() => {}} />));
    await until(() => $toasts.get().some((t) => t.title === 'Finding not opened'));
    const shown = $toasts.get().find((t) => t.title === 'Finding not opened');
    expect(shown?.variant).toBe('destructive');
    expect(shown?.description).toBeTruthy();
  });
});
