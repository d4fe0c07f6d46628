import { describe, expect, it } from 'vitest';
import { loginUrl, returnPath } from '../../../src/lib/auth/safe-path.ts';

const ORIGIN = 'https://danglewatch.test';
const from = (value: string) => `?${new URLSearchParams({ from: value })}`;

describe('the return path after sign-in', () => {
  it.each([
    ['/dashboard?section=domains', '/dashboard?section=domains'],
    ['/pricing#faq', '/pricing#faq'],
    ['/dashboard/settings?tab=billing', '/dashboard/settings?tab=billing'],
  ])('keeps the same-origin path %s', (value, expected) => {
    expect(returnPath(from(value), ORIGIN)).toBe(expected);
  });

  it('falls back to /dashboard without a from', () => {
    expect(returnPath('', ORIGIN)).toBe('/dashboard');
  });

  it('does not send the user back to the sign-in pages', () => {
    expect(returnPath(from('/login'), ORIGIN)).toBe('/dashboard');
    expect(returnPath(from('/auth/signin?from=/x'), ORIGIN)).toBe('/dashboard');
  });

  // Each of these ends on another origin in some browser when assigned to location.
  const bypasses = [
    'https://evil.example',
    '//evil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '/\\/evil.example',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    'javascript:alert(1)',
    '/javascript:alert(1)//',
    'https:evil.example',
    'https:/evil.example',
    '///evil.example',
    '/ /evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    'data:text/html,<script>alert(1)</script>',
    ' /evil.example',
  ];

  it.each(bypasses)('regression: open redirect after sign-in refuses %j', (value) => {
    const path = returnPath(from(value), ORIGIN);
    const target = new URL(path, ORIGIN);
    expect(target.origin).toBe(ORIGIN);
    expect(path.startsWith('/')).toBe(true);
    expect(path.startsWith('//')).toBe(false);
  });

  it('regression: open redirect through a raw (not form-encoded) query string', () => {
    for (const raw of [
      '?from=/%09/evil.com',
      '?from=/%5C/evil.com',
      '?from=%2F%2Fevil.com',
      '?from=/%0a/evil.com',
    ]) {
      expect(new URL(returnPath(raw, ORIGIN), ORIGIN).origin, raw).toBe(ORIGIN);
    }
    expect(returnPath('?from=/%09/evil.com', ORIGIN)).toBe('/dashboard');
  });

  it('carries the origin location', () => {
    expect(loginUrl({ pathname: '/dashboard', search: '?section=settings', hash: '' })).toBe(
      '/login?from=%2Fdashboard%3Fsection%3Dsettings',
    );
  });
});
