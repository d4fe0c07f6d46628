import { API_ACCESS_MESSAGES } from '../model/api-access.ts';
import { can, WORKSPACE_MESSAGES, type WorkspaceAction, type WorkspaceRole } from '../model/workspaces.ts';
import { ServiceError } from './errors.ts';

/**
 * Who acts: the account (none for the worker), its address and whether its provider verified it
 * (the Free plan's rule and invitations read them), and where the request came from (the audit log).
 */
export interface Actor {
  userId: string | undefined;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  ip: string | undefined;
  via: 'session' | 'api-key' | 'worker';
}

/**
 * Who acts on which workspace, with what role: the one argument every workspace service takes, and
 * checks with authorize() on its first line. The API builds it once per request
 * (server/workspace-scope.ts for a session, middleware/api-key.ts for a key), the worker once per job
 * (workerContext). A service never trusts a workspace id handed to it on its own.
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

/**
 * The worker's context for a job on a workspace: it acts for the workspace on its schedule, as its
 * owner would, and with no request behind it.
 */
export function workerContext(workspace: WorkspaceContext['workspace']): WorkspaceContext {
  return {
    workspace,
    actor: {
      userId: undefined,
      email: null,
      emailVerified: false,
      displayName: null,
      ip: undefined,
      via: 'worker',
    },
    role: 'owner',
  };
}

/** The audit log's columns for what `ctx` does: who, where from, in which workspace. */
export function auditedBy(ctx: WorkspaceContext) {
  return { userId: ctx.actor.userId, workspaceId: ctx.workspace.id, ip: ctx.actor.ip };
}

/** The account acting, for what only a person does (proving a domain, inviting, connecting DNS). */
export function personActing(ctx: { actor: Actor }): string {
  if (ctx.actor.userId === undefined) throw new Error(`${ctx.actor.via} has no person acting`);
  return ctx.actor.userId;
}
