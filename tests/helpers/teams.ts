import { workspaceMembers, workspaces } from '../../src/db/schema.ts';
import type { WorkspaceRole } from '../../src/model/workspaces.ts';
import type { ApiSuite } from './api-suite.ts';
import type { MintedUser } from './emulator.ts';

interface Team {
  id: string;
  /** Calls the suite's app as `user`, acting in this team. */
  as(user: MintedUser, path: string, init?: { method?: string; body?: unknown }): Promise<Response>;
}

/**
 * A team workspace made in place, with its members and their roles already in it: for tests about
 * what a member may do, not about how members join.
 */
export async function insertTeam(
  api: ApiSuite,
  team: { name: string; tier: string },
  members: Array<[MintedUser, WorkspaceRole]>,
): Promise<Team> {
  const id = crypto.randomUUID();
  await api.db.insert(workspaces).values({ id, ...team });
  await api.db
    .insert(workspaceMembers)
    .values(members.map(([user, role]) => ({ workspaceId: id, userId: user.uid, role })));
  return {
    id,
    as: async (user, path, init = {}) => api.call(path, { ...init, token: user.idToken, workspace: id }),
  };
}
