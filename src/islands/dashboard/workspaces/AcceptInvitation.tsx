import { useEffect, useRef, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { rememberWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { serverMessage, toRequestError } from '../../../lib/request/errors.ts';
import type { WorkspaceView } from '../../../model/workspaces.ts';
import { AuthProvider } from '../../auth/auth-context.tsx';
import { ProtectedRoute, Spinner } from '../../auth/ProtectedRoute.tsx';
import { IslandErrorBoundary } from '../../ui/IslandErrorBoundary.tsx';
import { BUTTON } from '../shared/buttons.ts';

/**
 * The invitation e-mail's link: signs the visitor in when needed (the sign-in page returns here with
 * the token), accepts the invitation, and opens the workspace joined.
 */
export default function AcceptInvitation() {
  return (
    <IslandErrorBoundary>
      <AuthProvider eager>
        <ProtectedRoute>
          <Accept />
        </ProtectedRoute>
      </AuthProvider>
    </IslandErrorBoundary>
  );
}

type State =
  | { kind: 'accepting' }
  | { kind: 'joined'; workspace: WorkspaceView }
  | { kind: 'failed'; title: string; message: string };

/** The refusal in plain words: 403 another address, 410 a link that no longer works. */
export function acceptFailure(error: unknown): { title: string; message: string } {
  const status = toRequestError(error).statusCode;
  if (status === 403)
    return { title: 'This invitation is for another address', message: serverMessage(error) };
  if (status === 410) return { title: 'This invitation link no longer works', message: serverMessage(error) };
  return { title: 'The invitation could not be accepted', message: serverMessage(error) };
}

function Accept() {
  const [state, setState] = useState<State>({ kind: 'accepting' });
  // React's development double effects must not spend the single-use token twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    if (!token) {
      setState({
        kind: 'failed',
        title: 'This link is incomplete',
        message: 'Open the link from the invitation e-mail as it is, or ask for a new invitation.',
      });
      return;
    }
    dashboardApi()
      .workspaces.accept(token)
      .then(({ workspace }) => setState({ kind: 'joined', workspace }))
      .catch((error: unknown) => setState({ kind: 'failed', ...acceptFailure(error) }));
  }, []);

  if (state.kind === 'accepting') return <Spinner label="Accepting the invitation" />;
  if (state.kind === 'failed') {
    return (
      <div className="text-center">
        <h1 className="text-2xl font-semibold text-ink">{state.title}</h1>
        <p role="alert" className="mt-3 text-slate-700">
          {state.message}
        </p>
        <a href="/dashboard" className={`${BUTTON.secondary} mt-6`}>
          Go to your dashboard
        </a>
      </div>
    );
  }
  const open = () => {
    rememberWorkspace(state.workspace.id);
    window.location.assign('/dashboard');
  };
  return (
    <div className="text-center">
      <h1 className="text-2xl font-semibold text-ink">You joined {state.workspace.name}</h1>
      <p className="mt-3 text-slate-700">Its domains, scans and findings are in your dashboard now.</p>
      <button type="button" className={`${BUTTON.primary} mt-6`} onClick={open}>
        Open {state.workspace.name}
      </button>
    </div>
  );
}
