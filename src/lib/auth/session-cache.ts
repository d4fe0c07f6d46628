import { SESSION_CACHE_KEY, SESSION_MAX_AGE_MS } from '../../model/session.ts';
import {
  $auth,
  type AuthUser,
  type ClientProfile,
  isFirebaseLoaded,
  PROFILE_UNAVAILABLE_MESSAGE,
} from './state.ts';

const MESSAGE_KEY = 'danglewatch:auth-message';

interface CachedSession {
  user: AuthUser;
  /** Null when the server could not be asked: the cache never holds invented figures. */
  profile: ClientProfile | null;
  /** Sign-in time, ms since the epoch: the cache dies with the 24-hour session. */
  authTime: number;
}

/**
 * A small copy of the signed-in user kept in localStorage from sign-in to sign-out, so the header
 * of a public page shows who is signed in without loading Firebase (about 100 KB).
 */
function readCachedSession(now = Date.now()): CachedSession | null {
  try {
    const raw = localStorage.getItem(SESSION_CACHE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as CachedSession;
    if (!session?.user?.uid || !(now - session.authTime < SESSION_MAX_AGE_MS)) {
      localStorage.removeItem(SESSION_CACHE_KEY);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function writeCachedSession(session: CachedSession): void {
  try {
    localStorage.setItem(SESSION_CACHE_KEY, JSON.stringify(session));
  } catch {
    // Storage full or blocked: the header falls back to the signed-out view.
  }
}

export function clearCachedSession(): void {
  try {
    localStorage.removeItem(SESSION_CACHE_KEY);
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

/**
 * Shows the cached signed-in state. With `waitForFirebase`, a missing cache keeps `loading` true
 * until Firebase reports, because only Firebase knows for sure that nobody is signed in.
 */
export function hydrateFromCache(waitForFirebase: boolean): void {
  if (isFirebaseLoaded() || !$auth.get().loading) return;
  const session = readCachedSession();
  if (session) {
    $auth.set({
      ...$auth.get(),
      user: session.user,
      userProfile: session.profile,
      profileError: session.profile ? null : PROFILE_UNAVAILABLE_MESSAGE,
      loading: false,
    });
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
    if (event.key !== SESSION_CACHE_KEY || isFirebaseLoaded()) return;
    const session = readCachedSession();
    $auth.set({
      ...$auth.get(),
      user: session?.user ?? null,
      userProfile: session?.profile ?? null,
      loading: false,
    });
  });
}
