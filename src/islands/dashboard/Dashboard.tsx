import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { dashboardApi } from '../../lib/dashboard/services.ts';
import { $workspaceId, $workspaces, loadWorkspaces } from '../../lib/dashboard/workspaces.ts';
import { Avatar } from '../auth/Avatar.tsx';
import { AuthProvider, useAuth } from '../auth/auth-context.tsx';
import { ProtectedRoute, Spinner, signOutAndLeave } from '../auth/ProtectedRoute.tsx';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { Toaster } from '../ui/Toaster.tsx';
import { DomainsSection } from './domains/DomainsSection.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { ScansSection } from './scans/ScansSection.tsx';
import { WorkspaceSwitcher } from './workspaces/WorkspaceSwitcher.tsx';

type Section = 'scans' | 'domains' | 'settings';

const SECTIONS: { id: Section; label: string }[] = [
  { id: 'scans', label: 'Scans' },
  { id: 'domains', label: 'Domains' },
  { id: 'settings', label: 'Settings' },
];

function sectionFrom(search: string, pathname = '/dashboard'): Section {
  if (pathname.replace(/\/+$/, '') === '/dashboard/settings') return 'settings';
  const wanted = new URLSearchParams(search).get('section');
  return SECTIONS.some((s) => s.id === wanted) ? (wanted as Section) : 'scans';
}

/** The signed-in shell: a sidebar and one section at a time, chosen by `?section=`. */
export default function Dashboard() {
  return (
    <IslandErrorBoundary>
      <AuthProvider eager>
        <ProtectedRoute signedOut={<SignedOut />}>
          <Shell />
        </ProtectedRoute>
      </AuthProvider>
    </IslandErrorBoundary>
  );
}

function SignedOut() {
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold text-ink">Authentication Required</h1>
      <p className="mt-2 text-slate-600">Please sign in to access the dashboard.</p>
      <a
        href="/login?from=%2Fdashboard"
        className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white"
      >
        Sign In
      </a>
    </div>
  );
}

function Shell() {
  const auth = useAuth();
  const { loaded: workspacesLoaded } = useStore($workspaces);
  const workspaceId = useStore($workspaceId);
  const [section, setSection] = useState<Section>(() =>
    typeof window === 'undefined' ? 'scans' : sectionFrom(window.location.search, window.location.pathname),
  );

  // The workspace comes first: the screens read the data of the one it settles on.
  // Read again when the tab regains focus: a member removed meanwhile falls back to their personal
  // workspace, and a changed role changes what is offered.
  useEffect(() => {
    const reload = () => void loadWorkspaces(dashboardApi().workspaces);
    reload();
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, []);

  useEffect(() => {
    const onPop = () => setSection(sectionFrom(window.location.search, window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const go = (next: Section) => {
    setSection(next);
    const url = new URL(window.location.href);
    url.pathname = '/dashboard';
    url.search = next === 'scans' ? '' : `?section=${next}`;
    window.history.pushState(null, '', url);
  };

  const user = auth.user;
  const profile = auth.userProfile;
  if (!user) return <SignedOut />;
  const name = profile?.displayName ?? user.displayName;
  const email = profile?.email ?? user.email;

  const signOut = () => signOutAndLeave(auth.signOut);

  return (
    <div className="mx-auto flex min-h-[calc(100vh-4rem)] max-w-6xl flex-col md:flex-row">
      <aside className="flex flex-col border-b border-slate-200 bg-slate-50 p-4 md:w-64 md:border-r md:border-b-0">
        <a href="/" className="flex items-center gap-2 text-lg font-bold text-ink">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          DangleWatch
        </a>
        <div className="mt-6 flex items-center gap-3" data-testid="sidebar-user">
          <Avatar photoURL={profile?.photoURL ?? user.photoURL} displayName={name} email={email} size="md" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-ink">{name || 'Unnamed user'}</p>
            {email && <p className="truncate text-xs text-slate-600">{email}</p>}
            <p className="text-xs text-slate-500">
              {user.provider === 'google' ? 'Google' : 'GitHub'} account
            </p>
          </div>
        </div>
        <WorkspaceSwitcher />
        <nav aria-label="Dashboard" className="mt-6 flex gap-1 md:flex-col">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              type="button"
              aria-current={section === s.id ? 'page' : undefined}
              className="rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-200 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
              onClick={() => go(s.id)}
            >
              {s.label}
            </button>
          ))}
        </nav>
        <button
          type="button"
          className="mt-6 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 md:mt-auto"
          onClick={signOut}
        >
          Sign Out
        </button>
      </aside>
      {workspacesLoaded ? (
        // Keyed by the workspace: a switch mounts the screens afresh, and each reads its data again.
        <div key={workspaceId ?? 'personal'} className="flex-1 p-6">
          {section === 'scans' && <ScansSection onGoToDomains={() => go('domains')} />}
          {section === 'domains' && <DomainsSection />}
          {section === 'settings' && <SettingsSection />}
        </div>
      ) : (
        <div className="flex-1 p-6">
          <Spinner label="Loading workspace" />
        </div>
      )}
      <Toaster />
    </div>
  );
}
