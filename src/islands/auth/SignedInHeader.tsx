import { useEffect, useRef, useState } from 'react';
import { Avatar } from './Avatar.tsx';
import { AuthProvider, useAuth } from './auth-context.tsx';
import type { HeaderVariant } from './header-styles.ts';
import { signOutAndLeave } from './ProtectedRoute.tsx';
import { UserMenuContents } from './UserMenu.tsx';

interface Props {
  variant: HeaderVariant;
}

/** The signed-in header: dashboard link, greeting, avatar and its menu (spec 1 §2). */
export default function SignedInHeader({ variant }: Props) {
  return (
    <AuthProvider>
      <SignedIn variant={variant} />
    </AuthProvider>
  );
}

function SignedIn({ variant }: Props) {
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
  if (!user) return null;
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
