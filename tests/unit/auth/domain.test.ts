import { describe, expect, it } from 'vitest';
import { companyDomain } from '../../../src/lib/auth/domain.ts';

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
