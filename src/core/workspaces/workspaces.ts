import { and, asc, count, eq, gt, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { users, workspaceInvitations, workspaceMembers, workspaces } from '../../db/schema.ts';
import type { PlanId } from '../../model/plans.ts';
import { getPlanForTier } from '../../model/profile.ts';
import {
  can,
  type MembersResponse,
  WORKSPACE_MESSAGES,
  type WorkspaceAction,
  type WorkspaceRole,
  type WorkspaceView,
} from '../../model/workspaces.ts';
import { ServiceError } from '../errors.ts';

/** The workspace a call acts on, and the caller's role in it. */
export interface WorkspaceAccess {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
}

/**
 * The workspace a call acts on: the one named (X-Workspace-ID), which the caller must belong to,
 * else the caller's personal one. A workspace the caller does not belong to is not found, so
 * its existence is not revealed.
 */
export async function workspaceAccess(db: Db, userId: string, named?: string): Promise<WorkspaceAccess> {
  const [row] = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      personal: workspaces.personal,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, named ?? userId)));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', WORKSPACE_MESSAGES.notFound);
  return { ...row, role: row.role as WorkspaceRole };
}

/** Refuses an action the caller's role may not do, naming the role it needs. */
export function assertCan(access: WorkspaceAccess, action: WorkspaceAction): void {
  if (!can(access.role, action)) {
    throw new ServiceError('forbidden', 'ROLE_REQUIRED', WORKSPACE_MESSAGES.roleNeeded(action));
  }
}

/**
 * The workspaces the user belongs to, the personal one first, each with its plan
 * (workspaceTierSql) and its number of members.
 */
export function listWorkspaces(db: Db, userId: string): Promise<WorkspaceView[]> {
  return workspaceViews(db, userId);
}

/** The workspaces the user belongs to as WorkspaceView shows them; `only` one of them. */
async function workspaceViews(db: Db, userId: string, only?: string): Promise<WorkspaceView[]> {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      personal: workspaces.personal,
      role: workspaceMembers.role,
      tier: workspaceTierSql(workspaces.id),
      joinedAt: workspaceMembers.joinedAt,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        only === undefined ? undefined : eq(workspaceMembers.workspaceId, only),
      ),
    )
    .orderBy(asc(workspaceMembers.joinedAt));
  const counts = rows.length
    ? await db
        .select({ workspaceId: workspaceMembers.workspaceId, n: count() })
        .from(workspaceMembers)
        .where(
          inArray(
            workspaceMembers.workspaceId,
            rows.map((row) => row.id),
          ),
        )
        .groupBy(workspaceMembers.workspaceId)
    : [];
  const members = new Map(counts.map((c) => [c.workspaceId, Number(c.n)]));
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      personal: row.personal,
      role: row.role as WorkspaceRole,
      plan: getPlanForTier(row.tier ?? 'free').id as PlanId,
      memberCount: members.get(row.id) ?? 0,
    }))
    .sort((a, b) => Number(b.personal) - Number(a.personal));
}

/**
 * Renames a team workspace (the route checks the role); a personal workspace keeps its name.
 * Answers the workspace as the list shows it to the caller.
 */
export async function renameWorkspace(
  db: Db,
  workspace: WorkspaceAccess,
  userId: string,
  name: string,
): Promise<WorkspaceView> {
  if (workspace.personal) {
    throw new ServiceError('conflict', 'PERSONAL_WORKSPACE', WORKSPACE_MESSAGES.personalRename);
  }
  await db.update(workspaces).set({ name }).where(eq(workspaces.id, workspace.id));
  const [view] = await workspaceViews(db, userId, workspace.id);
  if (!view) throw new ServiceError('not-found', 'NOT_FOUND', WORKSPACE_MESSAGES.notFound);
  return view;
}

/** A workspace's members as MemberView shows them (joinedAt still a Date), `where` choosing which. */
export function selectMembers(db: Db, where: SQL | undefined) {
  return db
    .select({
      userId: workspaceMembers.userId,
      email: users.email,
      displayName: users.displayName,
      role: workspaceMembers.role,
      alertsEmail: workspaceMembers.alertsEmail,
      joinedAt: workspaceMembers.joinedAt,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(where)
    .orderBy(asc(workspaceMembers.joinedAt));
}

/** The workspace's members, oldest first, and its invitations still pending. */
export async function listMembers(db: Db, workspaceId: string, now: Date): Promise<MembersResponse> {
  const members = await selectMembers(db, eq(workspaceMembers.workspaceId, workspaceId));
  const invitations = await db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        isNull(workspaceInvitations.acceptedAt),
        isNull(workspaceInvitations.revokedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(workspaceInvitations.createdAt));
  return {
    members: members.map((m) => ({
      ...m,
      role: m.role as WorkspaceRole,
      joinedAt: m.joinedAt.toISOString(),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role as WorkspaceRole,
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/**
 * The plan of the workspace `workspaceId` names, as SQL: a team workspace's own; a personal
 * workspace's is its account's (`users.tier`, which billing sets), until plans and subscriptions
 * move onto workspaces. 'free' for a workspace that is gone.
 */
export function workspaceTierSql(workspaceId: SQLWrapper) {
  return sql<string>`coalesce((select case when w.personal then u.tier else w.tier end from workspaces w left join users u on u.id = w.id where w.id = ${workspaceId}), 'free')`;
}

/** The plan a workspace is on (see workspaceTierSql). */
export async function workspaceTier(db: Db, workspace: { id: string }): Promise<string> {
  const [row] = await queryRows<{ tier: string }>(
    db,
    sql`select ${workspaceTierSql(sql`${workspace.id}`)} as tier`,
  );
  return row?.tier ?? 'free';
}
