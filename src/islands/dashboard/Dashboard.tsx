import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { dashboardApi } from '../../lib/dashboard/services.ts';
import { $workspaceId, $workspaces, loadWorkspaces } from '../../lib/dashboard/workspaces.ts';
import { AuthProvider, useAuth } from '../auth/auth-context.tsx';
import { ProtectedRoute, Spinner, signOutAndLeave } from '../auth/ProtectedRoute.tsx';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { Toaster } from '../ui/Toaster.tsx';
import { DomainsSection } from './domains/DomainsSection.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { SECTIONS, type Section, Sidebar } from './Sidebar.tsx';
import { ScansSection } from './scans/ScansSection.tsx';

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
      <Sidebar
        section={section}
        onGo={go}
        onSignOut={signOut}
        name={name}
        email={email}
        photoURL={profile?.photoURL ?? user.photoURL}
        provider={user.provider}
      />
      {workspacesLoaded ? (
        // Keyed by the workspace: a switch mounts the screens afresh, and each reads its data again.
        <div key={workspaceId ?? 'personal'} className="min-w-0 flex-1 p-4 md:p-6">
          {section === 'scans' && <ScansSection onGoToDomains={() => go('domains')} />}
          {section === 'domains' && <DomainsSection />}
          {section === 'settings' && <SettingsSection />}
        </div>
      ) : (
        <div className="min-w-0 flex-1 p-4 md:p-6">
          <Spinner label="Loading workspace" />
        </div>
      )}
      <Toaster />
    </div>
  );
}
