import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { loginUrl } from '../../lib/auth/safe-path.ts';
import { useAuth } from './auth-context.tsx';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-label={label} className="flex justify-center py-24">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
    </div>
  );
}

let leaving = false;

/** Signs out and goes home (or `to`), without the protected page first bouncing to /login. */
export async function signOutAndLeave(signOut: () => Promise<void>, to = '/'): Promise<void> {
  leaving = true;
  await signOut();
  window.location.assign(to);
}

/**
 * Spinner while auth loads; the content once signed in; otherwise a redirect to /login carrying
 * where the visitor wanted to go. `signedOut` shows while the redirect happens.
 */
export function ProtectedRoute({ children, signedOut }: { children: ReactNode; signedOut?: ReactNode }) {
  const { user, loading } = useAuth();
  const mustLeave = !loading && !user;
  useEffect(() => {
    if (mustLeave && !leaving) window.location.replace(loginUrl(window.location));
  }, [mustLeave]);
  if (loading && !user) return <Spinner />;
  if (!user) return <>{signedOut ?? <Spinner />}</>;
  return <>{children}</>;
}
