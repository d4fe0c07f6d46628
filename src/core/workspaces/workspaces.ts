import { and, asc, count, eq, gt, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, inTransaction, queryRows, type Tx } from '../../db/client.ts';
import { users, workspaceInvitations, workspaceMembers, workspaces } from '../../db/schema.ts';
import type { PlanId } from '../../model/plans.ts';
import { getPlanForTier } from '../../model/profile.ts';
import {
  type MembersResponse,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
  type WorkspaceView,
} from '../../model/workspaces.ts';
import { type Actor, authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { effectiveTier, tierSql } from '../server-plan.ts';
import { allowanceLockSql } from './allowance.ts';

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

/**
 * Runs `work` in a transaction that holds the workspace's row lock: a plan limit's check and the
 * insert it allows then cannot interleave with another request on the same workspace (two tabs, two
 * members, a script), which would let both pass the check. A team workspace on Free also holds its
 * owner's personal workspace's lock, which every workspace sharing that Free allowance takes
 * (src/core/workspaces/allowance.ts). `work` must use the transaction it is given, not `db`.
 */
export function underWorkspaceLock<T>(db: Db, workspaceId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    await tx.execute(allowanceLockSql(workspaceId));
    return work(tx);
  });
}

/**
 * The workspaces the actor belongs to, the personal one first, each with its plan and its number
 * of members.
 */
export function listWorkspaces(db: Db, actor: Actor): Promise<WorkspaceView[]> {
  return workspaceViews(db, actor.userId);
}

/** The workspaces the user belongs to as WorkspaceView shows them; `only` one of them. */
async function workspaceViews(db: Db, userId: string, only?: string): Promise<WorkspaceView[]> {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      personal: workspaces.personal,
      role: workspaceMembers.role,
      tier: workspaces.tier,
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
      plan: getPlanForTier(effectiveTier(row.tier)).id as PlanId,
      memberCount: members.get(row.id) ?? 0,
    }))
    .sort((a, b) => Number(b.personal) - Number(a.personal));
}

/**
 * Renames a team workspace; a personal workspace keeps its name. Answers the workspace as the list
 * shows it to the caller.
 */
export async function renameWorkspace(db: Db, ctx: WorkspaceContext, name: string): Promise<WorkspaceView> {
  authorize(ctx, 'workspace.manage');
  const { workspace } = ctx;
  if (workspace.personal) {
    throw new ServiceError('conflict', 'PERSONAL_WORKSPACE', WORKSPACE_MESSAGES.personalRename);
  }
  await inTransaction(db, async (tx) => {
    await tx.update(workspaces).set({ name }).where(eq(workspaces.id, workspace.id));
    await auditIn(tx, ctx, 'workspace.renamed', { from: workspace.name, to: name });
  });
  const [view] = await workspaceViews(db, ctx.actor.userId, workspace.id);
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

/** The workspace's invitations still pending at `now`: neither accepted, withdrawn nor expired. */
export function pendingInvitations(workspaceId: string, now: Date) {
  return and(
    eq(workspaceInvitations.workspaceId, workspaceId),
    isNull(workspaceInvitations.acceptedAt),
    isNull(workspaceInvitations.revokedAt),
    gt(workspaceInvitations.expiresAt, now),
  );
}

/** The workspace's members, oldest first, and its invitations still pending. */
export async function listMembers(db: Db, ctx: WorkspaceContext, now: Date): Promise<MembersResponse> {
  authorize(ctx, 'read');
  const workspaceId = ctx.workspace.id;
  const members = await selectMembers(db, eq(workspaceMembers.workspaceId, workspaceId));
  const invitations = await db
    .select()
    .from(workspaceInvitations)
    .where(pendingInvitations(workspaceId, now))
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
 * The workspace's first owner: who the audit log names for what happens to the workspace without a
 * caller (Stripe's word on its plan). Undefined for a workspace that is gone.
 */
export async function workspaceOwner(db: Db, workspaceId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')))
    .orderBy(asc(workspaceMembers.joinedAt))
    .limit(1);
  return row?.userId;
}

/** The plan of the workspace `workspaceId` names, as SQL; 'free' for a workspace that is gone. */
export function workspaceTierSql(workspaceId: SQLWrapper) {
  return sql<string>`coalesce((select ${tierSql('w')} from workspaces w where w.id = ${workspaceId}), 'free')`;
}

/** The plan a workspace is on (see workspaceTierSql). */
export async function workspaceTier(db: Db, workspace: { id: string }): Promise<string> {
  const [row] = await queryRows<{ tier: string }>(
    db,
    sql`select ${workspaceTierSql(sql`${workspace.id}`)} as tier`,
  );
  return row?.tier ?? 'free';
}
