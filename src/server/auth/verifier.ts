import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { type DecodedIdToken, getAuth } from 'firebase-admin/auth';

export type { DecodedIdToken };

export interface TokenVerifier {
  verifyIdToken(token: string): Promise<DecodedIdToken>;
  /** Removes the sign-in account (account deletion); an already absent one is fine. */
  deleteUser(uid: string): Promise<void>;
  close(): Promise<void>;
}

let appCount = 0;

/**
 * Verifies Firebase ID tokens for one project with firebase-admin: signature (Google's keys),
 * audience and issuer (so another project's tokens fail), expiry. When FIREBASE_AUTH_EMULATOR_HOST
 * is set, firebase-admin accepts the emulator's unsigned tokens and asks the emulator whether the
 * user still exists and is enabled.
 */
export function firebaseTokenVerifier(projectId: string): TokenVerifier {
  // A named app per verifier: tests and the server may hold several projects in one process.
  const app: App = initializeApp({ projectId }, `danglewatch-auth-${++appCount}`);
  const auth = getAuth(app);
  return {
    // checkRevoked: with a real project, a disabled or revoked user is otherwise accepted until the
    // token expires (the emulator checks either way, which hides the gap in tests).
    verifyIdToken: (token) => auth.verifyIdToken(token, true),
    deleteUser: async (uid) => {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
