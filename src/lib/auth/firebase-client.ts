// Loaded only by dynamic import (see actions.ts): this module pulls in the Firebase SDK.
import { initializeApp } from 'firebase/app';
import {
  type Auth,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  signOut as firebaseSignOut,
  GithubAuthProvider,
  GoogleAuthProvider,
  type IdTokenResult,
  initializeAuth,
  onAuthStateChanged,
  signInWithPopup,
  type User,
} from 'firebase/auth';
import { type PublicAuthConfig, validateFirebaseConfig } from '../../model/firebase-config.ts';
import type { AuthUserResponse } from '../../model/profile.ts';
import { SESSION_MAX_AGE_MS } from '../../model/session.ts';
import { apiBase, authService, createAuthedClient } from '../request/api.ts';
import { redirectToSignIn } from '../request/client.ts';
import { RequestError } from '../request/errors.ts';
import {
  defaultSignInFailure,
  INVALID_SESSION_MESSAGE,
  type Provider,
  SESSION_EXPIRED_MESSAGE,
  signInErrorMessage,
} from './messages.ts';
import { clearCachedSession, setAuthMessage, writeCachedSession } from './session-cache.ts';
import { $auth, type AuthUser, type ClientProfile, PROFILE_UNAVAILABLE_MESSAGE } from './state.ts';
import { createTokenRefresher, isTokenExpired, type TokenTimes } from './token-lifecycle.ts';

let auth: Auth | undefined;
let verifyOnNextUser = false;
let firstReport = true;

const times = (result: IdTokenResult): TokenTimes => ({
  expiresAt: Date.parse(result.expirationTime),
  authTime: Date.parse(result.authTime),
  issuedAt: Date.parse(result.issuedAtTime),
});

const refresher = createTokenRefresher({
  refresh: async () => {
    const user = auth?.currentUser;
    if (!user) throw new Error('No signed-in user');
    return times(await user.getIdTokenResult(true));
  },
  onSessionExpired: () => void endSession(SESSION_EXPIRED_MESSAGE),
  onFatal: (error) => {
    console.error('Token refresh failed', error);
    void endSession(INVALID_SESSION_MESSAGE);
  },
});

export async function getIdToken(): Promise<string | null> {
  const user = auth?.currentUser;
  if (!user) return null;
  const result = await user.getIdTokenResult();
  const expiresAt = Date.parse(result.expirationTime) + refresher.skew;
  return isTokenExpired(expiresAt, Date.now()) ? user.getIdToken(true) : result.token;
}

const api = authService(
  createAuthedClient(getIdToken, {
    onUnauthorized: (error) => {
      if (error.code === 'SESSION_EXPIRED') {
        void endSession(SESSION_EXPIRED_MESSAGE);
        return;
      }
      // The server no longer accepts this user's tokens (e.g. the account is gone): signing out
      // here is what keeps /login from bouncing to /auth/signin and back forever.
      void endSession(INVALID_SESSION_MESSAGE);
      redirectToSignIn();
    },
  }),
);

async function readConfig(): Promise<PublicAuthConfig> {
  let res: Response;
  try {
    res = await fetch(`${apiBase()}/auth/config`, { headers: { accept: 'application/json' } });
  } catch {
    throw new Error('Network error. Please check your connection.');
  }
  if (res.status === 503) {
    $auth.setKey('configStatus', 'not-configured');
    throw new Error('Sign-in is not configured yet');
  }
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${res.statusText}`);
  const config = (await res.json()) as PublicAuthConfig;
  validateFirebaseConfig(config.firebase ?? {});
  return config;
}

/** Reads the web configuration from the server, starts Firebase and waits for the first auth state. */
export async function start(): Promise<void> {
  if (auth) return;
  $auth.setKey('configStatus', 'checking');
  let config: PublicAuthConfig;
  try {
    config = await readConfig();
  } catch (error) {
    const state = $auth.get();
    $auth.set({
      ...state,
      configStatus: state.configStatus === 'not-configured' ? 'not-configured' : 'error',
      configError: (error as Error).message,
      loading: false,
    });
    throw error;
  }
  const app = initializeApp(config.firebase);
  auth = initializeAuth(app, {
    persistence: browserLocalPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  $auth.set({ ...$auth.get(), configStatus: 'configured', configError: null });
  const current = auth;
  await new Promise<void>((resolve) => {
    onAuthStateChanged(current, (user) => {
      void handleUser(user).finally(resolve);
    });
  });
}

function toAuthUser(user: User): AuthUser {
  const providerId = user.providerData[0]?.providerId;
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
    provider: providerId === 'google.com' ? 'google' : 'github',
    emailVerified: user.emailVerified,
  };
}

function toProfile(answer: AuthUserResponse): ClientProfile {
  return {
    displayName: answer.user.displayName,
    email: answer.user.email,
    photoURL: answer.user.photoURL,
    tier: answer.user.tier,
    provider: answer.user.provider,
    scanQuota: answer.quota,
    createdAt: answer.user.createdAt,
    lastLoginAt: answer.user.lastLoginAt,
  };
}

async function handleUser(user: User | null): Promise<void> {
  // The first auth report clears an earlier error; later ones leave a sign-in error shown.
  if (firstReport) $auth.setKey('error', null);
  firstReport = false;
  // Read before any await: signInWith() checks it to know whether this listener got the user.
  const verify = verifyOnNextUser && user !== null;
  if (user) verifyOnNextUser = false;
  if (!user) {
    refresher.stop();
    clearCachedSession();
    $auth.set({ ...$auth.get(), user: null, userProfile: null, profileError: null, loading: false });
    return;
  }
  const token = times(await user.getIdTokenResult());
  if (Date.now() - token.authTime >= SESSION_MAX_AGE_MS) {
    await endSession(SESSION_EXPIRED_MESSAGE);
    return;
  }
  const authUser = toAuthUser(user);
  $auth.set({ ...$auth.get(), user: authUser, error: null });
  let profile: ClientProfile | null;
  let profileError: string | null = null;
  try {
    profile = toProfile(await (verify ? api.verify() : api.getUser()));
  } catch (error) {
    // A 401 has already ended the session (onUnauthorized).
    if (error instanceof RequestError && error.statusCode === 401) return;
    console.warn('Could not load the profile', error);
    // The last answer the server gave, if any; never figures made up here.
    profile = $auth.get().userProfile;
    profileError = PROFILE_UNAVAILABLE_MESSAGE;
  }
  writeCachedSession({ user: authUser, profile, authTime: token.authTime });
  $auth.set({
    ...$auth.get(),
    user: authUser,
    userProfile: profile,
    profileError,
    loading: false,
    error: null,
  });
  refresher.start(token);
}

export async function refreshProfile(): Promise<void> {
  const user = $auth.get().user;
  if (!user || !auth?.currentUser) return;
  let profile: ClientProfile;
  try {
    profile = toProfile(await api.getUser());
  } catch (error) {
    if (!(error instanceof RequestError && error.statusCode === 401)) {
      $auth.setKey('profileError', PROFILE_UNAVAILABLE_MESSAGE);
    }
    throw error;
  }
  const token = times(await auth.currentUser.getIdTokenResult());
  writeCachedSession({ user, profile, authTime: token.authTime });
  $auth.set({ ...$auth.get(), userProfile: profile, profileError: null });
}

export async function signInWith(provider: Provider): Promise<void> {
  if (!auth) throw new Error('Sign-in is not ready');
  const authProvider = provider === 'google' ? new GoogleAuthProvider() : new GithubAuthProvider();
  if (authProvider instanceof GoogleAuthProvider) {
    authProvider.addScope('email');
    authProvider.addScope('profile');
  } else {
    authProvider.addScope('user:email');
  }
  $auth.set({ ...$auth.get(), loading: true, error: null });
  verifyOnNextUser = true;
  try {
    const credential = await signInWithPopup(auth, authProvider);
    // Signing in again as the user already signed in may not fire the auth-state listener.
    if (verifyOnNextUser) await handleUser(credential.user);
  } catch (error) {
    verifyOnNextUser = false;
    const message = signInErrorMessage(error) || defaultSignInFailure(provider);
    $auth.set({ ...$auth.get(), loading: false, error: message });
    throw new Error(message);
  }
}

export async function signOut(): Promise<void> {
  if (!auth) return;
  $auth.setKey('loading', true);
  refresher.stop();
  await firebaseSignOut(auth);
  clearCachedSession();
}

/** Ends the session with a message the login page shows. */
async function endSession(message: string): Promise<void> {
  setAuthMessage(message);
  refresher.stop();
  clearCachedSession();
  try {
    await signOut();
  } catch (error) {
    console.error('Sign out failed', error);
  }
  $auth.set({ ...$auth.get(), user: null, userProfile: null, loading: false, error: message });
}
