import { useEffect, useRef, useState } from 'preact/hooks';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { Avatar } from './Avatar.tsx';
import { AuthProvider, useAuth } from './auth-context.tsx';
import { signOutAndLeave } from './ProtectedRoute.tsx';
import { UserMenuContents } from './UserMenu.tsx';

interface Props {
  variant: 'desktop' | 'mobile';
}

/**
 * The header's sign-in area. It shows the signed-in state from the session cached at sign-in, so
 * public pages carry no Firebase code; Firebase loads only when the user opens the menu or signs out.
 */
export default function HeaderAuth({ variant }: Props) {
  return (
    <IslandErrorBoundary>
      <AuthProvider>
        <HeaderAuthInner variant={variant} />
      </AuthProvider>
    </IslandErrorBoundary>
  );
}

const DESKTOP_BUTTON =
  'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700';
const MOBILE_LINK = 'block py-2 font-semibold text-brand-600';

function HeaderAuthInner({ variant }: Props) {
  const auth = useAuth();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const signOut = async () => {
    setOpen(false);
    if (window.location.pathname.startsWith('/dashboard')) await signOutAndLeave(auth.signOut);
    else await auth.signOut();
  };

  if (auth.loading && !auth.user) {
    return (
      <button
        type="button"
        disabled
        class={variant === 'desktop' ? `${DESKTOP_BUTTON} opacity-60` : MOBILE_LINK}
      >
        Loading...
      </button>
    );
  }
  if (!auth.user) {
    return (
      <a href="/login" class={variant === 'desktop' ? DESKTOP_BUTTON : MOBILE_LINK}>
        Sign In
      </a>
    );
  }
  const profile = auth.userProfile;
  const avatar = (
    <Avatar
      photoURL={profile?.photoURL ?? auth.user.photoURL}
      displayName={profile?.displayName ?? auth.user.displayName}
      email={profile?.email ?? auth.user.email}
    />
  );

  if (variant === 'mobile') {
    return (
      <div class="border-t border-slate-100 pt-2" data-testid="header-auth-mobile">
        <a href="/dashboard" class="block py-2 font-medium text-slate-800">
          Dashboard
        </a>
        <div class="flex items-center gap-2 py-2 text-sm text-slate-700">
          {avatar}
          <span>Welcome back!</span>
        </div>
        <div role="menu" aria-label="Account" class="-mx-4">
          <UserMenuContents
            auth={auth}
            onSignOut={signOut}
            itemClass="block px-4 py-2 text-sm text-slate-800"
          />
        </div>
      </div>
    );
  }

  return (
    <div class="flex items-center gap-4" ref={root} data-testid="header-auth">
      <a href="/dashboard" class="text-sm font-medium text-slate-700 hover:text-brand-700">
        Dashboard
      </a>
      <span class="text-sm text-slate-600">Welcome back!</span>
      <div class="relative">
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-label="Account menu"
          class="rounded-full focus-visible:outline-2 focus-visible:outline-brand-600"
          onClick={() => {
            if (!open) void auth.refreshProfile();
            setOpen(!open);
          }}
        >
          {avatar}
        </button>
        {open && (
          <div
            role="menu"
            aria-label="Account"
            class="absolute right-0 mt-2 w-64 overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
          >
            <UserMenuContents
              auth={auth}
              onSignOut={signOut}
              itemClass="block px-4 py-2 text-sm text-slate-800 hover:bg-slate-50"
            />
          </div>
        )}
      </div>
    </div>
  );
}
