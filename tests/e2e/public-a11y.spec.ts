import { expect, test } from '@playwright/test';
import { axeResults, blocking } from '../helpers/axe.ts';

const pages = [
  '/',
  '/pricing',
  '/why-security-matters',
  '/trust-security',
  '/contact',
  '/docs/api',
  '/privacy-policy',
  '/terms-of-service',
  '/acceptable-use-policy',
  '/service-level-agreement',
  '/data-processing-agreement',
  '/no-such-page',
];

for (const path of pages) {
  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'mobile', width: 390, height: 844 },
  ]) {
    test(`axe finds no serious or critical violation on ${path} (${viewport.name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const results = await axeResults(page);
      expect(blocking(results)).toEqual([]);
      expect(results.passes.length).toBeGreaterThan(10);
    });
  }
}
