import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { loadFirebase, refreshProfile, signInWithProvider, signOut } from '../../lib/auth/actions.ts';
import type { Provider } from '../../lib/auth/messages.ts';
import { $auth, type AuthState } from '../../lib/auth/state.ts';
import { useHydratedAuthState } from './use-auth-state.ts';

export interface AuthContextValue extends AuthState {
  signInWithGoogle(): Promise<void>;
  signInWithGitHub(): Promise<void>;
  signIn(provider: Provider): Promise<void>;
  signOut(): Promise<void>;
  refreshProfile(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Gives its island the auth state. `eager` islands (login, dashboard) start Firebase on mount;
 * the others show the cached signed-in state and load Firebase only when the user acts.
 */
export function AuthProvider({ children, eager = false }: { children: ReactNode; eager?: boolean }) {
  const state = useHydratedAuthState(eager);
  useEffect(() => {
    if (!eager) return;
    loadFirebase().catch((error: unknown) => {
      // A configuration the server would not give is already in the state (start() put it there);
      // anything else, such as the sign-in code failing to download, is shown the same way.
      const state = $auth.get();
      if (state.configStatus === 'error' || state.configStatus === 'not-configured') return;
      $auth.set({
        ...state,
        configStatus: 'error',
        configError: error instanceof Error ? error.message : 'Sign-in could not start',
        loading: false,
      });
    });
  }, [eager]);
  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      signIn: signInWithProvider,
      signInWithGoogle: () => signInWithProvider('google'),
      signInWithGitHub: () => signInWithProvider('github'),
      signOut,
      refreshProfile,
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
