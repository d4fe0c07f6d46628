import type { Context } from 'hono';
import { currentUser } from '../core/users/users.ts';
import { assertCan, workspaceAccess, workspaceTier } from '../core/workspaces/workspaces.ts';
import type { Db } from '../db/client.ts';
import { WORKSPACE_HEADER, type WorkspaceAction } from '../model/workspaces.ts';
import type { AuthedEnv } from './auth/middleware.ts';

/**
 * Who calls, and on which workspace: the one X-Workspace-ID names, which the caller must belong
 * to (else 404, as for one that does not exist), or their personal one; refused with 403 unless
 * their role may do `action`. `owner` is what services take as the owner of what they read and
 * write: the workspace's id and plan, and the caller's e-mail address (the Free plan's rule).
 */
export async function callerIn(db: Db, c: Context<AuthedEnv>, action: WorkspaceAction) {
  const user = await currentUser(db, c.var);
  const workspace = await workspaceAccess(db, user.id, c.req.header(WORKSPACE_HEADER) || undefined);
  assertCan(workspace, action);
  const tier = workspace.id === user.id ? user.tier : await workspaceTier(db, workspace);
  return { user, workspace, owner: { id: workspace.id, tier, email: user.email } };
}
