import { useEffect, useRef, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { rememberWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { serverMessage, toRequestError } from '../../../lib/request/errors.ts';
import type { WorkspaceView } from '../../../model/workspaces.ts';
import { AuthProvider, useAuth } from '../../auth/auth-context.tsx';
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

interface Failure {
  title: string;
  message: string;
  /** The way on is another sign-in (the invited address, verified): the page offers it. */
  signInAgain?: boolean;
}

type State =
  | { kind: 'accepting' }
  | { kind: 'joined'; workspace: WorkspaceView }
  | ({ kind: 'failed' } & Failure);

/**
 * The refusal in plain words: 403 another address or one the sign-in provider has not verified
 * (both mended by signing in again), 410 a link that no longer works.
 */
export function acceptFailure(error: unknown): Failure {
  const { statusCode, code } = toRequestError(error);
  const message = serverMessage(error);
  if (statusCode === 403 && code === 'EMAIL_NOT_VERIFIED')
    return { title: 'Your e-mail address is not verified', message, signInAgain: true };
  if (statusCode === 403)
    return { title: 'This invitation is for another address', message, signInAgain: true };
  if (statusCode === 410) return { title: 'This invitation link no longer works', message };
  return { title: 'The invitation could not be accepted', message };
}

function Accept() {
  const auth = useAuth();
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
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {state.signInAgain && (
            // Signed out, the page sends the visitor to sign in and back here with the same link.
            <button type="button" className={BUTTON.primary} onClick={() => void auth.signOut()}>
              Sign in with another account
            </button>
          )}
          <a href="/dashboard" className={BUTTON.secondary}>
            Go to your dashboard
          </a>
        </div>
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
