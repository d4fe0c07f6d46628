import { describe, expect, it } from 'vitest';
import { initials } from '../../../src/lib/auth/initials.ts';
import {
  authErrorMessage,
  BLOCKED_SCRIPT_MESSAGE,
  defaultSignInFailure,
  signInErrorMessage,
} from '../../../src/lib/auth/messages.ts';
import { scanQuota, tierBadge } from '../../../src/model/profile.ts';

const coded = (code: string, message = '') => Object.assign(new Error(message), { code });

describe('sign-in messages', () => {
  it.each([
    ['auth/popup-closed-by-user', 'Sign-in was cancelled. Please try again.'],
    ['auth/cancelled-popup-request', 'Sign-in was cancelled. Please try again.'],
    ['auth/popup-blocked', 'Popup was blocked. Please allow popups and try again.'],
    [
      'auth/account-exists-with-different-credential',
      'An account already exists with the same email but different sign-in credentials.',
    ],
    ['auth/network-request-failed', 'Network error. Please check your connection and try again.'],
  ])('%s', (code, message) => {
    expect(signInErrorMessage(coded(code, 'Firebase: raw text'))).toBe(message);
  });

  it("uses another coded error's own message, else 'Authentication failed'", () => {
    expect(signInErrorMessage(coded('auth/internal-error', 'Something broke'))).toBe('Something broke');
    expect(signInErrorMessage(coded('auth/internal-error'))).toBe('Authentication failed');
    expect(signInErrorMessage('a string')).toBe('Authentication failed');
    expect(signInErrorMessage(undefined)).toBe('Authentication failed');
  });

  it("regression: a blocked sign-in script says what to do, not 'auth/internal-error'", () => {
    // Firebase's own error when the script fails to load: the code, and the script's error event.
    const blocked = Object.assign(coded('auth/internal-error', 'Firebase: Error (auth/internal-error).'), {
      customData: new Event('error'),
    });
    expect(signInErrorMessage(blocked)).toBe(BLOCKED_SCRIPT_MESSAGE);
    expect(BLOCKED_SCRIPT_MESSAGE).toMatch(/Disable the blocker for this site/);
  });

  it('has the per-provider defaults', () => {
    expect(defaultSignInFailure('google')).toBe('Failed to sign in with Google');
    expect(defaultSignInFailure('github')).toBe('Failed to sign in with GitHub');
  });
});

describe('auth message mapping', () => {
  it.each([
    ['auth/user-not-found', 'No account found with this email address.'],
    ['auth/wrong-password', 'Incorrect password. Please try again.'],
    ['auth/email-already-in-use', 'An account already exists with this email address.'],
    ['auth/weak-password', 'Password must be at least 6 characters long.'],
    ['auth/invalid-email', 'Please enter a valid email address.'],
    ['auth/user-disabled', 'This account has been disabled. Contact support.'],
    ['auth/too-many-requests', 'Too many failed attempts. Please try again later.'],
    ['auth/network-request-failed', 'Network error. Please check your connection.'],
    ['auth/something-else', 'Authentication failed. Please try again.'],
    [undefined, 'Authentication failed. Please try again.'],
  ])('%s', (code, message) => {
    expect(authErrorMessage(code)).toBe(message);
  });
});

describe('avatar initials', () => {
  it.each([
    ['Ann Lee', 'ann@example.com', 'AL'],
    ['ann maria lee', null, 'AM'],
    ['  Cher  ', 'cher@example.com', 'C'],
    ['', 'octo@example.org', 'OC'],
    [null, '  x@y.io', 'X@'],
    [null, null, 'U'],
    ['   ', '', 'U'],
    ['Émile Zola', null, 'ÉZ'],
  ])('%j, %j → %s', (name, email, expected) => {
    expect(initials(name, email)).toBe(expected);
  });
});

describe('quota and badge', () => {
  const noon = new Date('2026-03-10T12:00:00Z');
  it('takes its figures from the plan catalogue', () => {
    expect(scanQuota('free', 0, noon)).toEqual({
      daily: 1,
      used: 0,
      remaining: 1,
      maxDomains: 1,
      resetsAt: '2026-03-11T00:00:00.000Z',
    });
    expect(scanQuota('intro', 30, noon)).toMatchObject({ daily: 25, remaining: 0 });
    expect(scanQuota('pro-solo', 7, noon)).toMatchObject({ daily: null, remaining: null, maxDomains: 500 });
  });

  it('colours the tier badge: free green, pro blue, pro-solo purple', () => {
    expect(tierBadge('free').className).toContain('green');
    expect(tierBadge('pro').className).toContain('blue');
    expect(tierBadge('pro-solo').className).toContain('purple');
  });
});
