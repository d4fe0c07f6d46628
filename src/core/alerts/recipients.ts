import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, workspaceMembers } from '../../db/schema.ts';
import { can, WORKSPACE_ROLES, type WorkspaceAction } from '../../model/workspaces.ts';

export interface AlertRecipient {
  userId: string;
  email: string;
}

/**
 * Who hears of a scan's changes: every member of the workspace (all of a team, the one of a
 * personal workspace) who has an address and has not turned the workspace's alerts off, in the
 * order they joined.
 */
export async function alertRecipients(db: Db, workspaceId: string): Promise<AlertRecipient[]> {
  const members = await db
    .select({ userId: workspaceMembers.userId, email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.alertsEmail, true),
        isNotNull(users.email),
      ),
    )
    .orderBy(asc(workspaceMembers.joinedAt));
  return members.map((m) => ({ userId: m.userId, email: m.email as string }));
}

/** Who hears that a DNS connection (or a cloud account) keeps failing: the members who may manage them. */
export async function connectionManagerAddresses(
  db: Db,
  workspaceId: string,
  action: WorkspaceAction = 'dns-connections.manage',
): Promise<string[]> {
  const managers = await db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        inArray(
          workspaceMembers.role,
          WORKSPACE_ROLES.filter((role) => can(role, action)),
        ),
        isNotNull(users.email),
      ),
    );
  return managers.map((m) => m.email as string);
}
