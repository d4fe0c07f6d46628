import { expect, type Page, test } from '@playwright/test';
import { HELD_CREDENTIALS } from '../../src/model/held-credentials.ts';

/** Each public route and a few pieces of content that prove it rendered for real. */
const routes: { path: string; title: RegExp; h1: string | RegExp; texts: (string | RegExp)[] }[] = [
  {
    path: '/',
    title: /^DangleWatch$/,
    h1: 'Find dangling DNS records before attackers do',
    texts: [
      'The old way',
      'The DangleWatch way',
      '10 min',
      '95%',
      '24/7',
      'False positives',
      'What is a subdomain takeover?',
      '67%',
      '$2.1M',
      'of SaaS companies vulnerable',
      'How it works',
    ],
  },
  {
    path: '/pricing',
    title: /^Pricing \| DangleWatch$/,
    h1: 'Simple pricing for solo founders',
    texts: [
      '$4.99',
      'MVP Launch Tier',
      'Intro Plus',
      '$14.99',
      'Q4 2025',
      'Solo Starter',
      '$29.99',
      'Q1 2026',
      '$99',
      'Q2 2026',
      'Pro Solo',
      '$299',
      'Q3 2026',
      'White-label reports',
      'Is there a setup fee?',
    ],
  },
  {
    path: '/why-security-matters',
    title: /^Why Security Matters \| DangleWatch$/,
    h1: 'One forgotten DNS record is all it takes',
    texts: ['Small teams are the easiest targets', 'What an attacker gets'],
  },
  {
    path: '/trust-security',
    title: /^Trust & Security \| DangleWatch$/,
    h1: 'Built to be trusted with your weak spots',
    texts: ['Least-privilege integrations', 'SOC 2', 'ISO 27001', 'expires after 24 hours', 'Email address'],
  },
  {
    path: '/docs/api',
    title: /^API \| DangleWatch$/,
    h1: 'The DangleWatch API',
    texts: [
      'Settings → API',
      'X-RateLimit-Reset',
      'Retry-After',
      '100 calls/hour',
      '1,000 calls/hour',
      'GET /api/v1/scans/{id}',
      /curl -s -X POST/,
    ],
  },
  {
    path: '/contact',
    title: /^Contact \| DangleWatch$/,
    h1: 'Talk to a human',
    texts: ['Sheridan, WY', 'Wyoming, USA', 'support@danglewatch.com'],
  },
  {
    path: '/privacy-policy',
    title: /^Privacy Policy \| DangleWatch$/,
    h1: 'Privacy Policy',
    texts: [
      'Last Updated: November 29, 2026; earlier version: August 25, 2025',
      '7 years',
      'within 72 hours',
      'at least 18 years old',
      'expires after 24 hours',
    ],
  },
  {
    path: '/terms-of-service',
    title: /^Terms of Service \| DangleWatch$/,
    h1: 'Terms of Service',
    texts: [
      'Last Updated: November 29, 2026; earlier version: August 25, 2025',
      'Changed on November 29, 2026: The Intro plan now includes the public API, at 100 calls an hour.',
      'Plan limits',
      'non-refundable',
      '1,000 calls/hour',
      'Unlimited (fair use)',
    ],
  },
  {
    path: '/acceptable-use-policy',
    title: /^Acceptable Use Policy \| DangleWatch$/,
    h1: 'Acceptable Use Policy',
    texts: ['Last Updated: November 29, 2026; earlier version: August 25, 2025', '100 calls/hour'],
  },
  {
    path: '/service-level-agreement',
    title: /^Service Level Agreement \| DangleWatch$/,
    h1: 'Service Level Agreement',
    texts: [
      'Last Updated: August 25, 2025',
      '99.9%',
      '99.5%',
      'Best effort',
      'under 500 ms',
      '15 minutes',
      '8am-8pm EST',
    ],
  },
  {
    path: '/data-processing-agreement',
    title: /^Data Processing Agreement \| DangleWatch$/,
    h1: 'Data Processing Agreement',
    texts: [
      'Last Updated: November 29, 2026; earlier version: August 25, 2025',
      'once a year with 30 days notice',
      'within 72 hours',
    ],
  },
];

for (const route of routes) {
  test(`${route.path} renders its content`, async ({ page }) => {
    // A CSP violation (an unhashed inline script or style) or a crashed island shows up as a console error.
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(route.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
    const main = page.getByRole('main');
    for (const text of route.texts) await expect(main.getByText(text).first()).toBeVisible();
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/.{50,}/);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  });
}

test('the legal limits table renders the four contract plans from the catalogue, members included', async ({
  page,
}) => {
  await page.goto('/terms-of-service');
  const rows = page.getByRole('table', { name: 'Plan limits' }).locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toHaveText(/^\s*Free\s*\$0\s*1\s*1 per day\s*None\s*1\s*$/);
  await expect(rows.nth(1)).toHaveText(/^\s*Intro\s*\$4\.99\s*25\s*1 per day\s*100 calls\/hour\s*3\s*$/);
  await expect(rows.nth(2)).toHaveText(/^\s*Solo\s*\$99\s*100\s*24 per day\s*100 calls\/hour\s*10\s*$/);
  await expect(rows.nth(3)).toHaveText(
    /^\s*Pro Solo\s*\$299\s*500\s*Unlimited \(fair use\)\s*1,000 calls\/hour\s*50\s*$/,
  );
});

test('the trust and legal pages say which credentials we hold, how they are sealed and revoked', async ({
  page,
}) => {
  for (const path of ['/trust-security', '/privacy-policy', '/data-processing-agreement']) {
    await page.goto(path);
    const list = page.getByRole('main').getByTestId('held-credentials');
    for (const held of HELD_CREDENTIALS) {
      await expect(list.locator(`[data-kind="${held.kind}"]`), path).toContainText(held.can);
      await expect(list.locator(`[data-kind="${held.kind}"]`), path).toContainText(held.removed);
    }
  }
  await page.goto('/trust-security');
  await expect(page.getByRole('main')).not.toContainText('reads only what the internet can already see');
  await page.goto('/');
  await expect(page.getByRole('main')).not.toContainText('only reads public DNS and HTTP answers');
});

test('the API guide sells API keys with Intro, a plan one can buy, and no roadmap caveat', async ({
  page,
}) => {
  await page.goto('/docs/api');
  await expect(page.getByRole('main')).toContainText(
    'API keys come with the Intro plan, at 100 calls an hour, and every plan above it.',
  );
  await expect(page.getByRole('main')).not.toContainText('not for sale yet');
  // The findings' states as the API answers them, accepted risks included.
  await expect(page.getByRole('main')).toContainText('state: open, accepted, resolved or all');
});

test('the Terms of Service link to the Privacy Policy', async ({ page }) => {
  await page.goto('/terms-of-service');
  await page.getByRole('main').getByRole('link', { name: 'Privacy Policy' }).first().click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
});

test('the footer links every legal page and contact', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  for (const [name, path] of [
    ['Privacy Policy', '/privacy-policy'],
    ['Terms of Service', '/terms-of-service'],
    ['Acceptable Use Policy', '/acceptable-use-policy'],
    ['Service Level Agreement', '/service-level-agreement'],
    ['Data Processing Agreement', '/data-processing-agreement'],
    ['Contact', '/contact'],
  ]) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', path);
  }
  await footer.getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

const navLinks: [string, RegExp, string][] = [
  ['Pricing', /\/pricing$/, 'Simple pricing for solo founders'],
  ['Why Security', /\/why-security-matters$/, 'One forgotten DNS record is all it takes'],
  ['Trust', /\/trust-security$/, 'Built to be trusted with your weak spots'],
  ['Home', /\/$/, 'Find dangling DNS records before attackers do'],
];

async function expectLanded(page: Page, url: RegExp, h1: string) {
  await expect(page).toHaveURL(url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
}

test('the header links lead to their pages', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/contact');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  for (const [name, url, h1] of navLinks) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expectLanded(page, url, h1);
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  }
});

test('the mobile menu opens and its links work on a small screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The desktop list is hidden; only the menu button shows.
  await expect(nav.getByRole('link', { name: 'Pricing', exact: true })).toBeHidden();
  for (const [name, url, h1] of navLinks) {
    await nav.getByText('Menu').click();
    const link = nav.locator('details').getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    await link.click();
    await expectLanded(page, url, h1);
  }
  await nav.getByText('Menu').click();
  await expect(nav.locator('details').getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test("'See How It Works' scrolls to the how-it-works section", async ({ page }) => {
  await page.goto('/');
  const section = page.locator('#how-it-works');
  await expect(section).not.toBeInViewport();
  await page.getByRole('link', { name: 'See How It Works' }).click();
  await expect(section).toBeInViewport();
  await expect(page).toHaveURL(/#how-it-works$/);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
});

test("the pricing 'Get Started' buttons go to the home page's call to action", async ({ page }) => {
  await page.goto('/pricing');
  const buttons = page.getByRole('link', { name: /^Get Started/ });
  await expect(buttons).toHaveCount(2);
  for (const i of [0, 1]) await expect(buttons.nth(i)).toHaveAttribute('href', '/#cta');
  await buttons.first().click();
  await expect(page).toHaveURL(/\/#cta$/);
  const cta = page.locator('#cta');
  await expect(cta).toBeInViewport();
  await expect(cta.getByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/login');
  await expect(cta.getByLabel('Email address')).toBeVisible();
});

test('the takeover guide link opens an external article safely', async ({ page }) => {
  await page.goto('/');
  const link = page.getByRole('link', { name: /guide to subdomain takeovers/ });
  await expect(link).toHaveAttribute('href', /^https:\/\/developer\.mozilla\.org\//);
  await expect(link).toHaveAttribute('rel', /noopener/);
});

test('the pricing FAQ answers open without JavaScript', async ({ page }) => {
  await page.goto('/pricing');
  const answer = page.getByText('Plans can be changed anytime', { exact: false });
  await expect(answer).toBeHidden();
  await page.getByText('Can I change plans later?').click();
  await expect(answer).toBeVisible();
  await expect(answer).toContainText('effective immediately');
  await page.getByText('Is there a setup fee?').click();
  await expect(page.getByText('There is no setup fee on any plan')).toBeVisible();
});
