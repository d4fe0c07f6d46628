import { useEffect, useRef, useState } from 'react';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { Avatar } from './Avatar.tsx';
import { AuthProvider, useAuth } from './auth-context.tsx';
import { signOutAndLeave } from './ProtectedRoute.tsx';
import { UserMenuContents } from './UserMenu.tsx';

const DESKTOP_BUTTON =
  'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700';
const MOBILE_LINK = 'block py-2 font-semibold text-brand-600';

interface Props {
  variant: 'desktop' | 'mobile';
}

/**
 * The header's account area: 'Sign In', or the dashboard link, greeting, avatar and
 * menu. Pages hydrate it with `client:session`, only for a visitor with a cached session, and it
 * shows that session without Firebase; Firebase loads only when the user opens the menu or signs out.
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

  const user = auth.user;
  // Also the server's rendering: a visitor without a session never hydrates this island.
  if (!user) {
    return (
      <a href="/login" className={variant === 'desktop' ? DESKTOP_BUTTON : MOBILE_LINK}>
        Sign In
      </a>
    );
  }
  const profile = auth.userProfile;
  const avatar = (
    <Avatar
      photoURL={profile?.photoURL ?? user.photoURL}
      displayName={profile?.displayName ?? user.displayName}
      email={profile?.email ?? user.email}
    />
  );

  if (variant === 'mobile') {
    return (
      <div className="border-t border-slate-100 pt-2" data-testid="header-auth-mobile">
        <a href="/dashboard" className="block py-2 font-medium text-slate-800">
          Dashboard
        </a>
        <div className="flex items-center gap-2 py-2 text-sm text-slate-700">
          {avatar}
          <span>Welcome back!</span>
        </div>
        <div role="menu" aria-label="Account" className="-mx-4">
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
    <div className="flex items-center gap-4" ref={root} data-testid="header-auth">
      <a href="/dashboard" className="text-sm font-medium text-slate-700 hover:text-brand-700">
        Dashboard
      </a>
      <span className="text-sm text-slate-600">Welcome back!</span>
      <div className="relative">
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-label="Account menu"
          className="rounded-full focus-visible:outline-2 focus-visible:outline-brand-600"
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
            className="absolute right-0 mt-2 w-64 overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
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
