import type { Provider } from './messages.ts';
import { clearCachedSession } from './session-cache.ts';
import { $auth, markFirebaseLoaded } from './state.ts';

type FirebaseClient = typeof import('./firebase-client.ts');
let client: Promise<FirebaseClient> | undefined;

/** Loads and starts Firebase once per page; only islands that need it, or a user action, call this. */
export function loadFirebase(): Promise<FirebaseClient> {
  markFirebaseLoaded();
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

/** Signs out; a failure is only logged: the user asked to leave, and this page forgets them anyway. */
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

/** Fetches the profile and quota again (e.g. when the avatar menu opens, or on 'Retry'). */
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
