import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';

/**
 * Budgets of DESIGN.md: legal and editorial pages ship no framework JavaScript (one inline header
 * script of at most 1 KB); the home page at most 75 KB gzip; no public page but /login loads Firebase.
 */
const ZERO_JS = [
  '/why-security-matters',
  '/contact',
  '/docs/api',
  '/privacy-policy',
  '/terms-of-service',
  '/acceptable-use-policy',
  '/service-level-agreement',
  '/data-processing-agreement',
];
const HOME_BUDGET = 75 * 1024;
const HEADER_SCRIPT_BUDGET = 1024;

/** Loads a page, scrolls through it so every island hydrates, and sums the gzip size of all JS it ran. */
async function measureJs(page: Page, path: string) {
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  });
  await page.goto(path);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const inline = await page
    .locator('script:not([src])')
    .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  const files = await Promise.all(bodies);
  const gzip = (b: Buffer | string) => gzipSync(b, { level: 9 }).length;
  const fileBytes = files.reduce((sum, b) => sum + gzip(b), 0);
  const inlineBytes = inline.reduce((sum, s) => sum + (s ? gzip(s) : 0), 0);
  return {
    files: files.length,
    scripts: await page.locator('script').count(),
    inline: inline.map((s) => s.length),
    total: fileBytes + inlineBytes,
    firebase: files.some((b) => b.includes('firebase') && b.includes('initializeAuth')),
  };
}

for (const path of ZERO_JS) {
  test(`${path} ships no framework JavaScript, only the small header script`, async ({ page }) => {
    const js = await measureJs(page, path);
    expect(js.files).toBe(0);
    expect(js.scripts).toBe(1);
    expect(js.inline).toHaveLength(1);
    expect(js.inline[0]).toBeLessThanOrEqual(HEADER_SCRIPT_BUDGET);
  });
}

for (const path of ['/', '/pricing', '/trust-security']) {
  test(`${path} loads at most 75 KB gzip of JavaScript, and no Firebase`, async ({ page }, info) => {
    const js = await measureJs(page, path);
    info.annotations.push({
      type: 'js-gzip-bytes',
      description: `${path}: ${js.total} bytes in ${js.files} files`,
    });
    console.log(`JS budget ${path}: ${js.total} bytes gzip in ${js.files} files`);
    expect(js.total).toBeGreaterThan(0);
    expect(js.total).toBeLessThanOrEqual(HOME_BUDGET);
    expect(js.firebase).toBe(false);
  });
}
