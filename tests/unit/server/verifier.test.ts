import { Auth } from 'firebase-admin/auth';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { firebaseTokenVerifier } from '../../../src/server/auth/verifier.ts';
import { disableUser, mintIdToken, TEST_PROJECT_ID, waitForAuthEmulator } from '../../helpers/emulator.ts';

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

describe('firebaseTokenVerifier with AUTH_TOKEN_CACHE_SECONDS (cacheMs)', () => {
  it('takes a token it verified again for cacheMs only: a disabled account loses access after that', async () => {
    const emulatorHost = inject('authEmulatorHost');
    await waitForAuthEmulator(emulatorHost);
    const saved = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
    const cached = firebaseTokenVerifier(TEST_PROJECT_ID, { cacheMs: 1_000 });
    const uncached = firebaseTokenVerifier(TEST_PROJECT_ID);
    try {
      const user = await mintIdToken(emulatorHost, { sub: `cached-${Date.now()}`, email: 'c@example.com' });
      expect((await cached.verifyIdToken(user.idToken)).uid).toBe(user.uid);
      await disableUser(emulatorHost, user.uid);
      const disabled = { code: 'auth/user-disabled' };
      // Without the cache, at once; with it, the trade-off: the window, then the same refusal.
      await expect(uncached.verifyIdToken(user.idToken)).rejects.toMatchObject(disabled);
      expect((await cached.verifyIdToken(user.idToken)).uid).toBe(user.uid);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await expect(cached.verifyIdToken(user.idToken)).rejects.toMatchObject(disabled);
      // A refusal is never remembered as a success, nor is a token it has not seen.
      await expect(cached.verifyIdToken(user.idToken)).rejects.toMatchObject(disabled);
      await expect(cached.verifyIdToken(`${user.idToken}x`)).rejects.toThrow();
    } finally {
      await cached.close();
      await uncached.close();
      if (saved === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      else process.env.FIREBASE_AUTH_EMULATOR_HOST = saved;
    }
  });
});
