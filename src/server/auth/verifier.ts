import { createHash } from 'node:crypto';
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { type DecodedIdToken, getAuth } from 'firebase-admin/auth';

export type { DecodedIdToken };

export interface TokenVerifier {
  /** True when verified tokens are taken again without asking Firebase (AUTH_TOKEN_CACHE_SECONDS). */
  readonly remembersTokens?: boolean;
  /** `fresh` asks Firebase even when the token is remembered. */
  verifyIdToken(token: string, options?: { fresh?: boolean }): Promise<DecodedIdToken>;
  /** Removes the sign-in account (account deletion); an already absent one is fine. */
  deleteUser(uid: string): Promise<void>;
  close(): Promise<void>;
}

/** Tokens remembered at most (one per signed-in browser tab in the last few seconds); oldest go first. */
const CACHE_ENTRIES = 10_000;

let appCount = 0;

/**
 * Verifies Firebase ID tokens for one project with firebase-admin: signature (Google's keys),
 * audience and issuer (so another project's tokens fail), expiry, and whether the account is still
 * enabled and its tokens not revoked. That last check is a call to Firebase (or the emulator) per
 * verification; with `cacheMs` > 0 a token that passed everything is taken again without asking,
 * for at most `cacheMs` and never past its own expiry. The trade-off: an account disabled or
 * revoked meanwhile keeps working that long with a token it already used (an unchecked token
 * would keep working for up to an hour). Tokens are remembered by their SHA-256, never in clear,
 * and a token that failed is never remembered.
 */
export function firebaseTokenVerifier(projectId: string, options: { cacheMs?: number } = {}): TokenVerifier {
  // A named app per verifier: tests and the server may hold several projects in one process.
  const app: App = initializeApp({ projectId }, `danglewatch-auth-${++appCount}`);
  const auth = getAuth(app);
  const cacheMs = options.cacheMs ?? 0;
  const verified = new Map<string, { token: DecodedIdToken; until: number }>();
  return {
    remembersTokens: cacheMs > 0,
    verifyIdToken: async (token, verifyOptions = {}) => {
      const key = cacheMs > 0 ? createHash('sha256').update(token).digest('base64url') : undefined;
      const hit = key === undefined || verifyOptions.fresh ? undefined : verified.get(key);
      if (hit && hit.until > Date.now()) return hit.token;
      // checkRevoked: with a real project, a disabled or revoked user is otherwise accepted until
      // the token expires (the emulator checks either way, which hides the gap in tests).
      const decoded = await auth.verifyIdToken(token, true);
      if (key !== undefined) {
        verified.delete(key);
        if (verified.size >= CACHE_ENTRIES) verified.delete(verified.keys().next().value as string);
        verified.set(key, { token: decoded, until: Math.min(Date.now() + cacheMs, decoded.exp * 1000) });
      }
      return decoded;
    },
    deleteUser: async (uid) => {
      // This process at least forgets the account's tokens at once (others within cacheMs).
      for (const [key, entry] of verified) if (entry.token.uid === uid) verified.delete(key);
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
