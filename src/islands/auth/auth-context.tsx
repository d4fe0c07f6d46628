import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { type QuotaCheck, validateDomain } from '../../lib/auth/domain.ts';
import type { Provider } from '../../lib/auth/messages.ts';
import {
  $auth,
  type AuthState,
  checkQuota,
  hydrateFromCache,
  loadFirebase,
  refreshProfile,
  signInWithProvider,
  signOut,
  watchCachedSession,
} from '../../lib/auth/store.ts';
import { useStore } from '../ui/use-store.ts';

export interface AuthContextValue extends AuthState {
  signInWithGoogle(): Promise<void>;
  signInWithGitHub(): Promise<void>;
  signIn(provider: Provider): Promise<void>;
  signOut(): Promise<void>;
  refreshProfile(): Promise<void>;
  /** The server's quota: may a scan start now? A failed check says no, with 0 remaining. */
  checkQuota(): Promise<QuotaCheck>;
  /** False for anything that is not a well-formed domain. */
  validateDomain(domain: string): boolean;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Gives its island the auth state. `eager` islands (login, dashboard) start Firebase on mount;
 * the others show the cached signed-in state and load Firebase only when the user acts.
 */
export function AuthProvider({ children, eager = false }: { children: ComponentChildren; eager?: boolean }) {
  const stored = useStore($auth);
  // The first client render must match the server's HTML (auth loading, nobody signed in), even
  // when another island on the page has already learnt who is signed in; otherwise hydration
  // keeps the server's 'Loading...' next to the client's 'Sign In'.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    hydrateFromCache(eager);
    watchCachedSession();
    if (eager) loadFirebase().catch(() => {});
  }, [eager]);
  const state = mounted ? stored : { ...stored, user: null, userProfile: null, loading: true };
  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      signIn: signInWithProvider,
      signInWithGoogle: () => signInWithProvider('google'),
      signInWithGitHub: () => signInWithProvider('github'),
      signOut,
      refreshProfile,
      checkQuota,
      validateDomain,
    }),
    [state],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
