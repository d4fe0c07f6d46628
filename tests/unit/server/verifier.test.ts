import { Auth } from 'firebase-admin/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firebaseTokenVerifier } from '../../../src/server/auth/verifier.ts';

afterEach(() => vi.restoreAllMocks());

describe('firebaseTokenVerifier', () => {
  // With a real project, firebase-admin checks revocation and the disabled flag only when asked to;
  // the emulator always checks, so the emulator tests (auth.test.ts) cannot catch this gap. The
  // check itself needs Google's key servers, so this test holds the one call that decides it.
  it('regression: a disabled or revoked account loses access with a real project (checkRevoked)', async () => {
    const saved = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const calls: unknown[][] = [];
    vi.spyOn(Auth.prototype, 'verifyIdToken').mockImplementation(async (...args: unknown[]) => {
      calls.push(args);
      throw Object.assign(new Error('revoked'), { code: 'auth/id-token-revoked' });
    });
    const verifier = firebaseTokenVerifier('real-project-1234');
    try {
      await expect(verifier.verifyIdToken('a.token.value')).rejects.toMatchObject({
        code: 'auth/id-token-revoked',
      });
      expect(calls).toEqual([['a.token.value', true]]);
    } finally {
      await verifier.close();
      if (saved !== undefined) process.env.FIREBASE_AUTH_EMULATOR_HOST = saved;
    }
  });
});
