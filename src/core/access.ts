import { API_ACCESS_MESSAGES } from '../model/api-access.ts';
import { can, WORKSPACE_MESSAGES, type WorkspaceAction, type WorkspaceRole } from '../model/workspaces.ts';
import { ServiceError } from './errors.ts';

/**
 * Who acts: the account (for a key, its maker), its address and whether its provider verified it
 * (the Free plan's rule and invitations read them), and where the request came from (the audit log).
 */
export interface Actor {
  userId: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  ip: string | undefined;
  via: 'session' | 'api-key';
}

/**
 * Who acts on which workspace, with what role: the one argument every workspace service takes, and
 * checks with authorize() on its first line. The API builds it once per request
 * (server/workspace-scope.ts for a session, middleware/api-key.ts for a key). A service a caller
 * reaches never trusts a workspace id handed to it on its own. The worker's jobs have no caller:
 * they act on the ids the product queued (a scan, a delivery, a connection), and the services they
 * call take those ids.
 */
export interface WorkspaceContext {
  workspace: { id: string; name: string; personal: boolean; tier: string };
  actor: Actor;
  /** What the actor may do here now: a key's is the lesser of its own and its maker's. */
  role: WorkspaceRole;
}

/**
 * Refuses an action the context's role may not do, naming the role it needs (for a key, also the
 * role the key acts with). The one check of the rule table (ROLE_NEEDED), made by every service.
 */
export function authorize(ctx: WorkspaceContext, action: WorkspaceAction): void {
  if (can(ctx.role, action)) return;
  const message =
    ctx.actor.via === 'api-key'
      ? API_ACCESS_MESSAGES.keyRoleNeeded(ctx.role, action)
      : WORKSPACE_MESSAGES.roleNeeded(action);
  throw new ServiceError('forbidden', 'ROLE_REQUIRED', message);
}
