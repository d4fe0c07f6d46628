import { Hono } from 'hono';
import { currentUser } from '../../core/users/users.ts';
import { assertCan, listMembers, listWorkspaces, workspaceAccess } from '../../core/workspaces/workspaces.ts';
import type { Db } from '../../db/client.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';

/** The caller's workspaces and, for a workspace they belong to, its members and pending invitations. */
export function workspaceRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const user = await currentUser(db, c.var);
      return c.json({ workspaces: await listWorkspaces(db, user.id) });
    })
    .get('/:id/members', async (c) => {
      const user = await currentUser(db, c.var);
      const access = await workspaceAccess(db, user.id, c.req.param('id'));
      assertCan(access, 'read');
      return c.json(await listMembers(db, access.id, now()));
    });
}
