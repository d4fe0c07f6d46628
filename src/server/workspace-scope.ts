import type { Context } from 'hono';
import type { Actor, WorkspaceContext } from '../core/access.ts';
import { currentUser } from '../core/users/users.ts';
import { workspaceAccess, workspaceTier } from '../core/workspaces/workspaces.ts';
import type { Db } from '../db/client.ts';
import { PERSONAL_WORKSPACE_NAME, WORKSPACE_HEADER } from '../model/workspaces.ts';
import type { AuthedEnv } from './auth/middleware.ts';

/**
 * The signed-in account, as the actor of what concerns it alone (its workspaces, invitations it
 * accepts, its data), and as every context of its calls names it.
 */
export async function sessionActor(db: Db, c: Context<AuthedEnv>): Promise<Actor> {
  return (await signedIn(db, c)).actor;
}

async function signedIn(db: Db, c: Context<AuthedEnv>) {
  const user = await currentUser(db, c.var);
  const actor: Actor = {
    userId: user.id,
    email: user.email,
    emailVerified: c.var.token.email_verified === true,
    displayName: user.displayName,
    ip: c.get('clientAddress'),
    via: 'session',
  };
  return { user, actor };
}

/**
 * A signed-in caller's context: the workspace `named` (the path's) or X-Workspace-ID names, which
 * they must belong to (else 404, as for one that does not exist), or their personal one. The
 * services it is handed check what the role may do.
 */
export async function sessionContext(
  db: Db,
  c: Context<AuthedEnv>,
  named = c.req.header(WORKSPACE_HEADER) || undefined,
): Promise<WorkspaceContext> {
  const { user, actor } = await signedIn(db, c);
  // Everyone owns their personal workspace, whose id is their own: the commonest calls (the scan
  // list, polled) need no query to find it.
  if (named === undefined || named === user.id) {
    const workspace = { id: user.id, name: PERSONAL_WORKSPACE_NAME, personal: true, tier: user.tier };
    return { workspace, actor, role: 'owner' };
  }
  const access = await workspaceAccess(db, user.id, named);
  const workspace = {
    id: access.id,
    name: access.name,
    personal: access.personal,
    tier: access.personal ? user.tier : await workspaceTier(db, access),
  };
  return { workspace, actor, role: access.role };
}
