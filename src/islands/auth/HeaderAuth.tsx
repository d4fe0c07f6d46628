import { lazy, Suspense } from 'react';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { DESKTOP_BUTTON, type HeaderVariant, MOBILE_LINK } from './header-styles.ts';
import { useHydratedAuthState } from './use-auth-state.ts';

// Most visitors of a public page are signed out: the avatar, the menu, the plan catalogue and the
// code that loads Firebase on demand come only for a signed-in visitor, which keeps them out of
// the page's first JavaScript.
const SignedInHeader = lazy(() => import('./SignedInHeader.tsx'));

interface Props {
  variant: HeaderVariant;
}

/**
 * The header's sign-in area. It shows the signed-in state from the session cached at sign-in, so
 * public pages carry no Firebase code; Firebase loads only when the user opens the menu or signs out.
 */
export default function HeaderAuth({ variant }: Props) {
  return (
    <IslandErrorBoundary>
      <HeaderAuthInner variant={variant} />
    </IslandErrorBoundary>
  );
}

function Loading({ variant }: Props) {
  return (
    <button
      type="button"
      disabled
      className={variant === 'desktop' ? `${DESKTOP_BUTTON} opacity-60` : MOBILE_LINK}
    >
      Loading...
    </button>
  );
}

function HeaderAuthInner({ variant }: Props) {
  const auth = useHydratedAuthState(false);
  if (auth.loading && !auth.user) return <Loading variant={variant} />;
  if (!auth.user) {
    return (
      <a href="/login" className={variant === 'desktop' ? DESKTOP_BUTTON : MOBILE_LINK}>
        Sign In
      </a>
    );
  }
  return (
    <Suspense fallback={<Loading variant={variant} />}>
      <SignedInHeader variant={variant} />
    </Suspense>
  );
}
