import { expect, test } from '@playwright/test';

test('every page carries the content-security policy and hardening headers', async ({ request }) => {
  for (const path of ['/', '/no-such-page']) {
    const response = await request.get(path);
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
  }
});

test('the policy blocks an injected inline script while the page’s own scripts run', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      violations.push(message.text());
    }
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const ran = await page.evaluate(async () => {
    const blocked = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (event) => resolve(event.violatedDirective), {
        once: true,
      }),
    );
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    const directive = await blocked;
    return { directive, injected: (window as unknown as { __injected?: boolean }).__injected === true };
  });
  expect(ran.injected).toBe(false);
  expect(ran.directive).toMatch(/^script-src/);
  // Nothing the page ships itself was blocked: the only violation is the injected one.
  expect(violations).toHaveLength(1);
});

test('the pages that load the app break no rule of the policy themselves', async ({ page }) => {
  // A library that probes for eval (zod does, to compile its schemas) is blocked and reported: a
  // console error in production and a best-practices mark. The browser bundles carry no such probe.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`),
    );
  });
  for (const path of ['/login', '/dashboard', '/']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const violations = await page.evaluate(
      () => (window as unknown as { __violations: string[] }).__violations,
    );
    expect(violations, path).toEqual([]);
  }
});
