/**
 * Lighthouse scores of the public pages, in Debian's Chromium, against our own server on a fresh
 * embedded database. Budget: at least 95 in every category (reported, not enforced).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureSiteBuilt } from '../src/cli/build-site.ts';
import { loadConfig } from '../src/server/config.ts';
import { startServer } from '../src/server/main.ts';

const PAGES = ['/', '/pricing', '/privacy-policy', '/why-security-matters', '/trust-security', '/login'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

ensureSiteBuilt((line) => console.log(line));
const port = 4460;
const server = await startServer(
  loadConfig({
    PORT: String(port),
    DATA_DIR: join(mkdtempSync(join(tmpdir(), 'dw-lh-')), 'data'),
    LOG_LEVEL: 'warn',
  }),
);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const rows: Record<string, Record<string, number>> = {};
try {
  for (const path of PAGES) {
    const result = await lighthouse(`http://127.0.0.1:${port}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // Desktop preset: the product's users read reports at a desk; mobile is checked by e2e layouts.
      formFactor: 'desktop',
      screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
      throttlingMethod: 'provided',
    });
    const categories = result?.lhr.categories ?? {};
    rows[path] = Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)]),
    );
  }
} finally {
  await chrome.kill();
  await server.stop();
}
console.table(rows);
const below = Object.entries(rows).flatMap(([page, scores]) =>
  Object.entries(scores)
    .filter(([, score]) => score < 95)
    .map(([category, score]) => `${page} ${category} ${score}`),
);
console.log(
  below.length ? `Below 95: ${below.join(', ')}` : 'Every page scores at least 95 in every category.',
);
