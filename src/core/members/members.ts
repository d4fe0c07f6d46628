import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Db, inTransaction } from '../../db/client.ts';
import { users, workspaceInvitations, workspaceMembers, workspaces } from '../../db/schema.ts';
import { teamFate } from '../../model/account-deletion.ts';
import { CONNECTION_MESSAGES, memberName } from '../../model/connections.ts';
import { getPlanForTier } from '../../model/profile.ts';
import {
  INVITATION_DAYS,
  type InvitationPreview,
  type InvitationView,
  type MemberView,
  ROLE_LABELS,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
  type WorkspaceView,
} from '../../model/workspaces.ts';
import { type Actor, authorize, type WorkspaceContext } from '../access.ts';
import { revokeKeysMadeBy } from '../api-keys/api-keys.ts';
import { audit, auditIn } from '../audit.ts';
import { type DisabledConnection, disableAnsweredBy, kindsBeyond } from '../connections/answerable.ts';
import { ServiceError } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { effectiveTier } from '../server-plan.ts';
import { isUuid } from '../validation.ts';
import { teamWorkspacesOwned } from '../workspaces/allowance.ts';
import { memberOf, setMemberAlerts } from '../workspaces/member.ts';
import { pendingInvitations, underWorkspaceLock, workspaceTier } from '../workspaces/workspaces.ts';
import { invitationMail } from './invitation-mail.ts';

type InvitationRow = typeof workspaceInvitations.$inferSelect;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const invitationView = (row: InvitationRow): InvitationView => ({
  id: row.id,
  email: row.email,
  role: row.role as WorkspaceRole,
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * A team workspace, its creator its owner. New workspaces start on Free (on a server that sells no
 * plans, on the server's plan), sharing the creator's Free
 * allowance (allowance.ts); an account whose own plan limits its team workspaces (Free: one) makes
 * no more than that.
 */
export async function createWorkspace(db: Db, actor: Actor, name: string, now: Date): Promise<WorkspaceView> {
  const userId = actor.userId;
  const id = crypto.randomUUID();
  // Under the personal workspace's lock: two requests at once cannot both take the last one.
  await underWorkspaceLock(db, userId, async (tx) => {
    const plan = getPlanForTier(await workspaceTier(tx, { id: userId }));
    const most = plan.limits.teamWorkspaces;
    if (most !== null && (await teamWorkspacesOwned(tx, userId)) >= most) {
      throw new ServiceError('conflict', 'WORKSPACE_LIMIT', WORKSPACE_MESSAGES.teamLimit(plan));
    }
    await tx.insert(workspaces).values({ id, name, personal: false, createdAt: now });
    await tx.insert(workspaceMembers).values({ workspaceId: id, userId, role: 'owner', joinedAt: now });
    await audit(tx, { userId, workspaceId: id, action: 'workspace.created', detail: { name }, ip: actor.ip });
  });
  return {
    id,
    name,
    personal: false,
    role: 'owner',
    plan: getPlanForTier(effectiveTier('free')).id,
    memberCount: 1,
  };
}

/** Members and pending invitations, against the plan's number of members. */
async function seatsTaken(db: Db, workspaceId: string, now: Date): Promise<number> {
  const [members] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  const [pending] = await db
    .select({ n: count() })
    .from(workspaceInvitations)
    .where(pendingInvitations(workspaceId, now));
  return Number(members?.n ?? 0) + Number(pending?.n ?? 0);
}

async function assertSeat(db: Db, workspace: { id: string }, now: Date) {
  const plan = getPlanForTier(await workspaceTier(db, workspace));
  if ((await seatsTaken(db, workspace.id, now)) >= plan.limits.members) {
    throw new ServiceError(
      'conflict',
      'MEMBER_LIMIT',
      WORKSPACE_MESSAGES.memberLimit(plan.name, plan.limits.members),
    );
  }
}

/**
 * Invites an address into a team workspace and mails it the link (`mail.link` makes it from the
 * token, which is kept only as its hash). Inviting an address with a pending invitation sends a new
 * link and withdraws the old one (resend). Pending invitations hold a seat of the plan's members.
 * A mail that fails leaves the invitation standing: Resend sends a new link once mail works again.
 */
export async function inviteMember(
  db: Db,
  ctx: WorkspaceContext,
  request: { email: string; role: WorkspaceRole },
  now: Date,
  mail: { mailer: Mailer | undefined; link: (token: string) => string; logger: Pick<Logger, 'warn'> },
): Promise<InvitationView> {
  authorize(ctx, 'members.manage');
  const invitedBy = ctx.actor.userId;
  const { workspace } = ctx;
  if (workspace.personal) {
    throw new ServiceError('conflict', 'PERSONAL_WORKSPACE', WORKSPACE_MESSAGES.personal);
  }
  const email = request.email.trim().toLowerCase();
  const invited = await underWorkspaceLock(db, workspace.id, async (tx) => {
    const [member] = await tx
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), sql`lower(${users.email}) = ${email}`));
    if (member) throw new ServiceError('conflict', 'ALREADY_MEMBER', WORKSPACE_MESSAGES.alreadyMember(email));
    await tx
      .update(workspaceInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(workspaceInvitations.workspaceId, workspace.id),
          eq(workspaceInvitations.email, email),
          isNull(workspaceInvitations.acceptedAt),
          isNull(workspaceInvitations.revokedAt),
        ),
      );
    await assertSeat(tx, workspace, now);
    const token = randomBytes(32).toString('base64url');
    const [row] = await tx
      .insert(workspaceInvitations)
      .values({
        workspaceId: workspace.id,
        email,
        role: request.role,
        tokenHash: hashToken(token),
        invitedBy,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60_000),
      })
      .returning();
    if (!row) throw new Error('insert returned no invitation');
    await auditIn(tx, ctx, 'member.invited', { email: row.email, role: row.role });
    return { invitation: invitationView(row), token };
  });
  try {
    await mail.mailer?.send(
      invitationMail({
        to: invited.invitation.email,
        workspaceName: workspace.name,
        inviter: ctx.actor.displayName ?? ctx.actor.email ?? 'A DangleWatch user',
        role: ROLE_LABELS[invited.invitation.role],
        link: mail.link(invited.token),
        days: INVITATION_DAYS,
      }),
    );
  } catch (error) {
    mail.logger.warn({ err: error }, 'invitation e-mail not sent');
  }
  return invited.invitation;
}

/** Withdraws a pending invitation: its link stops working. */
export async function revokeInvitation(db: Db, ctx: WorkspaceContext, id: string, now: Date): Promise<void> {
  authorize(ctx, 'members.manage');
  const workspaceId = ctx.workspace.id;
  await inTransaction(db, async (tx) => {
    const [row] = isUuid(id)
      ? await tx
          .update(workspaceInvitations)
          .set({ revokedAt: now })
          .where(
            and(
              eq(workspaceInvitations.id, id),
              eq(workspaceInvitations.workspaceId, workspaceId),
              isNull(workspaceInvitations.acceptedAt),
              isNull(workspaceInvitations.revokedAt),
            ),
          )
          .returning()
      : [];
    if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Invitation not found');
    await auditIn(tx, ctx, 'invitation.revoked', { invitationId: row.id, email: row.email });
  });
}

/**
 * Who sent the invitation of `token` and to which workspace, for the sign-in page its link opens:
 * anyone holding the link may know that much, and nothing more. A token that names no invitation
 * waiting to be accepted is not found, whichever way it failed.
 */
export async function previewInvitation(db: Db, token: string, now: Date): Promise<InvitationPreview> {
  const [row] = await db
    .select({
      inviter: users.displayName,
      workspace: workspaces.name,
      acceptedAt: workspaceInvitations.acceptedAt,
      revokedAt: workspaceInvitations.revokedAt,
      expiresAt: workspaceInvitations.expiresAt,
    })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(eq(workspaceInvitations.tokenHash, hashToken(token)));
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now) {
    throw new ServiceError('not-found', 'INVITATION_NOT_FOUND', WORKSPACE_MESSAGES.invitationNotFound);
  }
  return { inviter: row.inviter?.trim() || null, workspace: row.workspace };
}

/**
 * Accepts an invitation for the signed-in account: only with the address it was sent to (without
 * regard to case) and that the sign-in provider verified (`signIn`, from the ID token: an address
 * nobody checked proves nothing, and a forwarded link must not make its holder a member), once,
 * within its days, and within the plan's number of members.
 */
export async function acceptInvitation(
  db: Db,
  actor: Actor,
  token: string,
  now: Date,
): Promise<WorkspaceView> {
  const userId = actor.userId;
  const [row] = await db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.tokenHash, hashToken(token)));
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now) {
    throw new ServiceError('gone', 'INVITATION_GONE', WORKSPACE_MESSAGES.invitationGone);
  }
  if (!actor.email || actor.email.toLowerCase() !== row.email) {
    throw new ServiceError('forbidden', 'WRONG_ACCOUNT', WORKSPACE_MESSAGES.invitationWrongEmail);
  }
  if (!actor.emailVerified) {
    throw new ServiceError('forbidden', 'EMAIL_NOT_VERIFIED', WORKSPACE_MESSAGES.invitationUnverifiedEmail);
  }
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, row.workspaceId));
  if (!workspace) throw new ServiceError('gone', 'INVITATION_GONE', WORKSPACE_MESSAGES.invitationGone);
  await underWorkspaceLock(db, workspace.id, async (tx) => {
    const [claimed] = await tx
      .update(workspaceInvitations)
      .set({ acceptedAt: now })
      .where(and(eq(workspaceInvitations.id, row.id), isNull(workspaceInvitations.acceptedAt)))
      .returning();
    if (!claimed) throw new ServiceError('gone', 'INVITATION_GONE', WORKSPACE_MESSAGES.invitationGone);
    await tx
      .insert(workspaceMembers)
      .values({ workspaceId: workspace.id, userId, role: row.role, joinedAt: now })
      .onConflictDoNothing();
    await audit(tx, {
      userId,
      workspaceId: workspace.id,
      action: 'invitation.accepted',
      detail: { role: row.role },
      ip: actor.ip,
    });
  });
  const [members] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspace.id));
  return {
    id: workspace.id,
    name: workspace.name,
    personal: workspace.personal,
    role: row.role as WorkspaceRole,
    plan: getPlanForTier(await workspaceTier(db, workspace)).id,
    memberCount: Number(members?.n ?? 0),
  };
}

async function owners(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
  return Number(row?.n ?? 0);
}

/**
 * Changes a member's role. Only an owner makes someone owner or changes an owner's role, and the
 * last owner stays owner: a workspace always has one. A role below admin disables the connections
 * the member answers for (webhooks, integrations, DNS connections, cloud accounts: answered as
 * `disabledConnections`, for the owners to hear of); their API keys need nothing: a key acts with
 * its maker's role as it is at each call.
 */
async function changeRole(
  db: Db,
  ctx: WorkspaceContext,
  userId: string,
  role: WorkspaceRole,
): Promise<{ member: MemberView; disabledConnections: DisabledConnection[] }> {
  const { workspace } = ctx;
  return underWorkspaceLock(db, workspace.id, async (tx) => {
    const member = await memberOf(tx, workspace.id, userId);
    if ((role === 'owner' || member.role === 'owner') && ctx.role !== 'owner') {
      throw new ServiceError('forbidden', 'ROLE_REQUIRED', WORKSPACE_MESSAGES.roleNeeded('workspace.manage'));
    }
    if (member.role === 'owner' && role !== 'owner' && (await owners(tx, workspace.id)) === 1) {
      throw new ServiceError('conflict', 'LAST_OWNER', WORKSPACE_MESSAGES.lastOwner);
    }
    await tx
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, userId)));
    const disabledConnections = await disableAnsweredBy(
      tx,
      {
        workspaceId: workspace.id,
        userId,
        reason: CONNECTION_MESSAGES.answererDemoted(memberName(member), role),
        now: new Date(),
      },
      kindsBeyond(role),
    );
    await auditIn(tx, ctx, 'member.role_changed', { member: userId, role });
    return { member: { ...member, role, joinedAt: member.joinedAt.toISOString() }, disabledConnections };
  });
}

/**
 * Removes a member (or the caller leaves): they lose access on their next call, and so do the API
 * keys they made for the workspace (they saw those secrets); the connections of every kind they
 * answer for are disabled (answered, for the owners to hear of). Only an owner removes an owner,
 * and the last owner cannot leave.
 */
export async function removeMember(
  db: Db,
  ctx: WorkspaceContext,
  userId: string,
): Promise<{ disabledConnections: DisabledConnection[] }> {
  // Anyone may leave; removing someone else is the members' manager's.
  authorize(ctx, userId === ctx.actor.userId ? 'read' : 'members.manage');
  const { workspace } = ctx;
  if (workspace.personal) {
    throw new ServiceError('conflict', 'PERSONAL_WORKSPACE', WORKSPACE_MESSAGES.personal);
  }
  return underWorkspaceLock(db, workspace.id, async (tx) => {
    const member = await memberOf(tx, workspace.id, userId);
    if (member.role === 'owner' && ctx.role !== 'owner') {
      throw new ServiceError('forbidden', 'ROLE_REQUIRED', WORKSPACE_MESSAGES.roleNeeded('workspace.manage'));
    }
    if (member.role === 'owner' && (await owners(tx, workspace.id)) === 1) {
      throw new ServiceError('conflict', 'LAST_OWNER', WORKSPACE_MESSAGES.lastOwner);
    }
    await tx
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, userId)));
    const now = new Date();
    await revokeKeysMadeBy(tx, userId, now, workspace.id);
    const reason = CONNECTION_MESSAGES.answererGone(memberName(member));
    await auditIn(tx, ctx, 'member.removed', { member: userId });
    return {
      disabledConnections: await disableAnsweredBy(tx, { workspaceId: workspace.id, userId, reason, now }),
    };
  });
}

/**
 * The team workspaces an account leaving would leave without an owner while others still work in
 * them (refused: ownership is handed over first), and those it is alone in (they go with it).
 */
export async function teamsOfLeavingAccount(db: Db, userId: string) {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      owners: sql<number>`(select count(*)::int from workspace_members o where o.workspace_id = ${workspaces.id} and o.role = 'owner')`,
      members: sql<number>`(select count(*)::int from workspace_members a where a.workspace_id = ${workspaces.id})`,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.role, 'owner'),
        eq(workspaces.personal, false),
      ),
    );
  // The dialog that deletes the account says what happens to each by the same rule.
  const fate = (r: (typeof rows)[number]) =>
    teamFate({ name: r.name, memberCount: Number(r.members), owners: Number(r.owners) });
  return {
    toHandOver: rows.filter((r) => fate(r) === 'hand-over'),
    alone: rows.filter((r) => fate(r) === 'deleted').map((r) => r.id),
  };
}

/** Refuses to delete an account that is the only owner of a team workspace others work in. */
export async function assertTeamsHandedOver(db: Db, userId: string): Promise<void> {
  const { toHandOver } = await teamsOfLeavingAccount(db, userId);
  if (toHandOver.length) {
    throw new ServiceError(
      'conflict',
      'TEAM_WORKSPACES_OWNED',
      WORKSPACE_MESSAGES.handOverFirst(toHandOver.map((w) => w.name)),
    );
  }
}

/**
 * Changes a member: their role (the members' manager's to change), and whether they get the
 * workspace's e-mail alerts (each member's own to set). A role below admin disables the connections
 * they answer for, answered for the owners to hear of.
 */
export async function updateMember(
  db: Db,
  ctx: WorkspaceContext,
  userId: string,
  change: { role?: WorkspaceRole; alertsEmail?: boolean },
): Promise<{ member: MemberView | undefined; disabledConnections: DisabledConnection[] }> {
  authorize(ctx, change.role === undefined ? 'read' : 'members.manage');
  if (change.alertsEmail !== undefined && userId !== ctx.actor.userId) {
    throw new ServiceError('forbidden', 'OWN_ALERTS_ONLY', WORKSPACE_MESSAGES.ownAlertsOnly);
  }
  const changed = change.role === undefined ? undefined : await changeRole(db, ctx, userId, change.role);
  const member =
    change.alertsEmail === undefined
      ? changed?.member
      : await setMemberAlerts(db, ctx.workspace.id, userId, change.alertsEmail);
  return { member, disabledConnections: changed?.disabledConnections ?? [] };
}
