import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';

/** Budgets of DESIGN.md: legal and editorial pages ship no JavaScript; the home page at most 30 KB gzip. */
const ZERO_JS = [
  '/why-security-matters',
  '/contact',
  '/privacy-policy',
  '/terms-of-service',
  '/acceptable-use-policy',
  '/service-level-agreement',
  '/data-processing-agreement',
];
const HOME_BUDGET = 30 * 1024;

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
    total: fileBytes + inlineBytes,
  };
}

for (const path of ZERO_JS) {
  test(`${path} ships no JavaScript`, async ({ page }) => {
    const js = await measureJs(page, path);
    expect(js).toEqual({ files: 0, scripts: 0, total: 0 });
  });
}

for (const path of ['/', '/pricing', '/trust-security']) {
  test(`${path} loads at most 30 KB gzip of JavaScript`, async ({ page }, info) => {
    const js = await measureJs(page, path);
    info.annotations.push({
      type: 'js-gzip-bytes',
      description: `${path}: ${js.total} bytes in ${js.files} files`,
    });
    console.log(`JS budget ${path}: ${js.total} bytes gzip in ${js.files} files`);
    expect(js.total).toBeGreaterThan(0);
    expect(js.total).toBeLessThanOrEqual(HOME_BUDGET);
  });
}
