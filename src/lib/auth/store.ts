import { map } from 'nanostores';
import type { Provider } from './messages.ts';
import type { ScanQuota, Tier } from './profile.ts';
import { SESSION_MAX_AGE_MS } from './token-lifecycle.ts';

/** The identity user of spec 1 §3. */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
  provider: Provider;
  emailVerified: boolean;
}

/** The auth context's profile (spec 1 §3), with the server's real quota. */
export interface ClientProfile {
  displayName: string | null;
  email: string | null;
  photoURL: string | null;
  tier: Tier;
  provider: Provider;
  scanQuota: Pick<ScanQuota, 'daily' | 'used' | 'remaining'>;
  createdAt?: string;
  lastLoginAt?: string;
}

export type ConfigStatus = 'checking' | 'configured' | 'not-configured' | 'error';

export interface AuthState {
  user: AuthUser | null;
  userProfile: ClientProfile | null;
  /** True until the first auth state is known, and during sign-in and sign-out. */
  loading: boolean;
  error: string | null;
  configStatus: ConfigStatus;
  configError: string | null;
}

/** Shared by every island on a page: nanostores tell a new subscriber the current state at once. */
export const $auth = map<AuthState>({
  user: null,
  userProfile: null,
  loading: true,
  error: null,
  configStatus: 'checking',
  configError: null,
});

const CACHE_KEY = 'danglewatch:session';
const MESSAGE_KEY = 'danglewatch:auth-message';

interface CachedSession {
  user: AuthUser;
  profile: ClientProfile;
  /** Sign-in time, ms since the epoch: the cache dies with the 24-hour session. */
  authTime: number;
}

/**
 * A small copy of the signed-in user kept in localStorage from sign-in to sign-out, so the header
 * of a public page shows who is signed in without loading Firebase (about 100 KB).
 */
export function readCachedSession(now = Date.now()): CachedSession | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as CachedSession;
    if (!session?.user?.uid || !(now - session.authTime < SESSION_MAX_AGE_MS)) {
      localStorage.removeItem(CACHE_KEY);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function writeCachedSession(session: CachedSession): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(session));
  } catch {
    // Storage full or blocked: the header falls back to the signed-out view.
  }
}

export function clearCachedSession(): void {
  try {
    localStorage.removeItem(CACHE_KEY);
  } catch {}
}

/** A message for the next visit of /login (e.g. the session expired). */
export function setAuthMessage(message: string): void {
  try {
    sessionStorage.setItem(MESSAGE_KEY, message);
  } catch {}
}

export function takeAuthMessage(): string | null {
  try {
    const message = sessionStorage.getItem(MESSAGE_KEY);
    sessionStorage.removeItem(MESSAGE_KEY);
    return message;
  } catch {
    return null;
  }
}

let firebaseLoaded = false;

/**
 * Shows the cached signed-in state. With `waitForFirebase`, a missing cache keeps `loading` true
 * until Firebase reports, because only Firebase knows for sure that nobody is signed in.
 */
export function hydrateFromCache(waitForFirebase: boolean): void {
  if (firebaseLoaded || !$auth.get().loading) return;
  const session = readCachedSession();
  if (session) {
    $auth.set({ ...$auth.get(), user: session.user, userProfile: session.profile, loading: false });
  } else if (!waitForFirebase) {
    $auth.set({ ...$auth.get(), user: null, userProfile: null, loading: false });
  }
}

let watching = false;

/**
 * Follows sign-in and sign-out in other tabs through the cached session. Where Firebase is loaded
 * it reports the change itself; this covers pages that never load it.
 */
export function watchCachedSession(): void {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('storage', (event) => {
    if (event.key !== CACHE_KEY || firebaseLoaded) return;
    const session = readCachedSession();
    $auth.set({
      ...$auth.get(),
      user: session?.user ?? null,
      userProfile: session?.profile ?? null,
      loading: false,
    });
  });
}

type FirebaseClient = typeof import('./firebase-client.ts');
let client: Promise<FirebaseClient> | undefined;

/** Loads and starts Firebase once per page; only islands that need it, or a user action, call this. */
export function loadFirebase(): Promise<FirebaseClient> {
  firebaseLoaded = true;
  client ??= import('./firebase-client.ts').then(async (module) => {
    await module.start();
    return module;
  });
  client.catch(() => {
    client = undefined;
  });
  return client;
}

export async function signInWithProvider(provider: Provider): Promise<void> {
  const firebase = await loadFirebase();
  await firebase.signInWith(provider);
}

/** Signs out; a failure is only logged, as the spec says. */
export async function signOut(): Promise<void> {
  try {
    const firebase = await loadFirebase();
    await firebase.signOut();
  } catch (error) {
    console.error('Sign out failed', error);
    // Firebase could not even load: at least forget the session this browser shows.
    clearCachedSession();
    $auth.set({ ...$auth.get(), user: null, userProfile: null, loading: false });
  }
}

/** Fetches the profile and quota again (e.g. when the avatar menu opens). */
export async function refreshProfile(): Promise<void> {
  try {
    const firebase = await loadFirebase();
    await firebase.refreshProfile();
  } catch (error) {
    console.warn('Could not refresh the profile', error);
  }
}

export async function getIdToken(): Promise<string | null> {
  const firebase = await loadFirebase();
  return firebase.getIdToken();
}

/** Whether the user may start a scan now, asked of the server (spec 1 §6's stub, made real). */
export async function checkQuota(): Promise<import('./domain.ts').QuotaCheck> {
  const { checkScanQuota } = await import('./domain.ts');
  return checkScanQuota(async () => {
    const firebase = await loadFirebase();
    return firebase.fetchUser();
  });
}
