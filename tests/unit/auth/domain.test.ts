import { describe, expect, it } from 'vitest';
import { checkScanQuota, companyDomain, validateDomain } from '../../../src/lib/auth/domain.ts';

describe('companyDomain', () => {
  it.each([
    ['ann@acme.io', 'acme.io'],
    ['Ann@Sub.Acme.IO', 'sub.acme.io'],
    ['someone@gmail.com', undefined],
    ['x@outlook.com', undefined],
    ['x@hotmail.co.uk', undefined],
    ['x@yahoo.fr', undefined],
    ['x@icloud.com', undefined],
    ['x@protonmail.com', undefined],
    ['x@aol.com', undefined],
    ['no-at-sign', undefined],
    [null, undefined],
  ])('%s → %s', (email, expected) => {
    expect(companyDomain(email)).toBe(expected);
  });
});

describe('validateDomain', () => {
  it('accepts well-formed domains only', () => {
    expect(validateDomain('example.com')).toBe(true);
    expect(validateDomain('exa_mple.com')).toBe(false);
    expect(validateDomain('')).toBe(false);
  });
});

describe('checkScanQuota (the real quota, not a stub)', () => {
  it('allows while scans remain, refuses at 0, allows unlimited plans', async () => {
    expect(await checkScanQuota(async () => ({ quota: { daily: 1, remaining: 1 } }))).toEqual({
      allowed: true,
      remaining: 1,
    });
    expect(await checkScanQuota(async () => ({ quota: { daily: 1, remaining: 0 } }))).toEqual({
      allowed: false,
      remaining: 0,
    });
    expect(await checkScanQuota(async () => ({ quota: { daily: null, remaining: null } }))).toEqual({
      allowed: true,
      remaining: null,
    });
  });

  it('a failed check is not allowed with 0 remaining', async () => {
    expect(
      await checkScanQuota(async () => {
        throw new Error('down');
      }),
    ).toEqual({ allowed: false, remaining: 0 });
  });
});
