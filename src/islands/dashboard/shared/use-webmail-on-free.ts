import { useStore } from '@nanostores/react';
import { signOut } from '../../../lib/auth/actions.ts';
import { $auth } from '../../../lib/auth/state.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { freeCoversNothing } from '../../../model/free-tier.ts';
import { signOutAndLeave } from '../../auth/ProtectedRoute.tsx';

/**
 * Whether the Free rule leaves the open workspace no domain to monitor (a webmail account on Free:
 * only where Free's rule applies, a server that bills or DEFAULT_PLAN=free, since the workspace's
 * plan is read with the server's default), with what WebmailNotice needs. Reads the auth store, not
 * the context, so the sections that show it need no provider of their own.
 */
export function useWebmailOnFree(): { applies: boolean; email: string | null; signInAgain: () => void } {
  const auth = useStore($auth);
  const workspace = useStore($currentWorkspace);
  const email = auth.userProfile?.email ?? auth.user?.email ?? null;
  return {
    // Before the account is known, nothing is said rather than a rule that may not apply.
    applies:
      auth.user !== null && freeCoversNothing(workspace?.plan ?? auth.userProfile?.tier ?? 'free', email),
    email,
    signInAgain: () => void signOutAndLeave(signOut, '/login'),
  };
}
