import { describe, expect, it } from 'vitest';
import { DOMAIN_MESSAGES } from '../../../src/model/domain-input.ts';
import { freeTierRefusal } from '../../../src/model/free-tier.ts';

const CASES: [string, Parameters<typeof freeTierRefusal>[0], string, string | undefined][] = [
  [
    'a paid plan takes any domain',
    { tier: 'solo', email: 'a@gmail.com', emailVerified: false },
    'x.org',
    undefined,
  ],
  ['the company domain', { tier: 'free', email: 'ann@acme.com', emailVerified: true }, 'acme.com', undefined],
  [
    'a subdomain of it',
    { tier: 'free', email: 'ann@acme.com', emailVerified: true },
    'shop.acme.com',
    undefined,
  ],
  [
    'another domain',
    { tier: 'free', email: 'ann@acme.com', emailVerified: true },
    'other.com',
    DOMAIN_MESSAGES.freeTier('acme.com'),
  ],
  [
    'a look-alike suffix',
    { tier: 'free', email: 'ann@acme.com', emailVerified: true },
    'notacme.com',
    DOMAIN_MESSAGES.freeTier('acme.com'),
  ],
  [
    'free webmail names no company',
    { tier: 'free', email: 'ann@gmail.com', emailVerified: true },
    'gmail.com',
    DOMAIN_MESSAGES.freeTierNoEmailDomain,
  ],
  [
    'an address nobody verified',
    { tier: 'free', email: 'ann@acme.com', emailVerified: false },
    'acme.com',
    DOMAIN_MESSAGES.freeTierUnverifiedEmail,
  ],
  ['verification not known (the browser)', { tier: 'free', email: 'ann@acme.com' }, 'acme.com', undefined],
  [
    'no address at all',
    { tier: 'free', email: null, emailVerified: true },
    'acme.com',
    DOMAIN_MESSAGES.freeTierNoEmailDomain,
  ],
];

describe('the Free plan’s domain rule', () => {
  it.each(CASES)('%s', (_, account, domain, refusal) => {
    expect(freeTierRefusal(account, domain)).toBe(refusal);
  });
});
