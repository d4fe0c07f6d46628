import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { hydrateFromCache, watchCachedSession } from '../../lib/auth/session-cache.ts';
import { $auth, type AuthState } from '../../lib/auth/state.ts';

/**
 * The shared auth state for an island, filled from the cached session on mount. With `eager`, a
 * missing cache keeps it loading until Firebase reports (see hydrateFromCache).
 */
export function useHydratedAuthState(eager: boolean): AuthState {
  const stored = useStore($auth);
  // The first client render must match the server's HTML (auth loading, nobody signed in), even
  // when another island on the page has already learnt who is signed in; otherwise hydration
  // keeps the server's 'Loading...' next to the client's 'Sign In'.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    hydrateFromCache(eager);
    watchCachedSession();
  }, [eager]);
  return mounted ? stored : { ...stored, user: null, userProfile: null, profileError: null, loading: true };
}
