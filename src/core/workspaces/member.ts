import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { workspaceMembers } from '../../db/schema.ts';
import type { MemberView, WorkspaceRole } from '../../model/workspaces.ts';
import { ServiceError } from '../errors.ts';
import { selectMembers } from './workspaces.ts';

/** One member of a workspace, with their role; 404 when they are not one. */
export async function memberOf(db: Db, workspaceId: string, userId: string) {
  const [row] = await selectMembers(
    db,
    and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)),
  );
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Member not found');
  return { ...row, role: row.role as WorkspaceRole };
}

/** A member turns the workspace's e-mail alerts on or off for themself. */
export async function setMemberAlerts(
  db: Db,
  workspaceId: string,
  userId: string,
  alertsEmail: boolean,
): Promise<MemberView> {
  await db
    .update(workspaceMembers)
    .set({ alertsEmail })
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  const member = await memberOf(db, workspaceId, userId);
  return { ...member, joinedAt: member.joinedAt.toISOString() };
}
