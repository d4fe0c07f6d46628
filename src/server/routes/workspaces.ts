import { Hono } from 'hono';
import { audit } from '../../core/audit.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { ServiceError } from '../../core/errors.ts';
import { BODY_LIMIT_KB, INVITATION_RATE, WORKSPACE_CREATE_RATE } from '../../core/limits.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { currentUser } from '../../core/users/users.ts';
import { parseInput } from '../../core/validation.ts';
import { listActivity } from '../../core/workspaces/activity.ts';
import { deleteWorkspace } from '../../core/workspaces/delete-workspace.ts';
import { invitationMail } from '../../core/workspaces/invitation-mail.ts';
import {
  acceptInvitation,
  changeRole,
  createWorkspace,
  inviteMember,
  removeMember,
  revokeInvitation,
  setMemberAlerts,
} from '../../core/workspaces/members.ts';
import {
  assertCan,
  listMembers,
  listWorkspaces,
  renameWorkspace,
  workspaceAccess,
} from '../../core/workspaces/workspaces.ts';
import type { Db } from '../../db/client.ts';
import {
  acceptInvitationSchema,
  activityQuerySchema,
  createWorkspaceSchema,
  invitationSchema,
  memberUpdateSchema,
  renameWorkspaceSchema,
} from '../../model/schemas.ts';
import {
  INVITATION_DAYS,
  ROLE_LABELS,
  WORKSPACE_MESSAGES,
  type WorkspaceAction,
} from '../../model/workspaces.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { tellOwnersOfDisabledWebhooks } from '../disabled-webhooks.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';

export interface WorkspaceDeps {
  /** Sends the invitation e-mails (SMTP, or the outbox without it). */
  mailer?: Mailer;
  /** Where the links in them point; the request's own origin without it. */
  publicUrl?: string;
  /** Stripe: a deleted workspace's customer is deleted with it. */
  billing?: Billing;
}

const smallBody = limitBody(BODY_LIMIT_KB.small);

/**
 * The caller's workspaces, creating, renaming and deleting one; for a workspace they belong to,
 * its members and invitations; and accepting an invitation (`/api/invitations/accept`, mounted
 * apart).
 */
export function workspaceRoutes(db: Db, auth: AuthDeps | undefined, deps: WorkspaceDeps, now: () => Date) {
  /** The workspace of the path, for a member (else 404) whose role may do `action` (else 403). */
  const access = async (id: string, userId: string, action: WorkspaceAction) => {
    const workspace = await workspaceAccess(db, userId, id);
    assertCan(workspace, action);
    return workspace;
  };
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const user = await currentUser(db, c.var);
      return c.json({ workspaces: await listWorkspaces(db, user.id) });
    })
    .post('/', smallBody, async (c) => {
      const { name } = await readJson(c, createWorkspaceSchema);
      const user = await currentUser(db, c.var);
      await countRequest(c, db, `${WORKSPACE_CREATE_RATE.name}:${user.id}`, WORKSPACE_CREATE_RATE);
      const workspace = await createWorkspace(db, user.id, name, now());
      await audit(db, {
        userId: user.id,
        workspaceId: workspace.id,
        action: 'workspace.created',
        detail: { name },
        ip: c.get('clientAddress'),
      });
      return c.json({ workspace }, 201);
    })
    .patch('/:id', smallBody, async (c) => {
      const { name } = await readJson(c, renameWorkspaceSchema);
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'workspace.manage');
      const renamed = await renameWorkspace(db, workspace, user.id, name);
      await audit(db, {
        userId: user.id,
        workspaceId: workspace.id,
        action: 'workspace.renamed',
        detail: { from: workspace.name, to: name },
        ip: c.get('clientAddress'),
      });
      return c.json({ workspace: renamed });
    })
    .delete('/:id', async (c) => {
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'workspace.manage');
      await deleteWorkspace(db, deps.billing, workspace, { userId: user.id, ip: c.get('clientAddress') });
      return c.body(null, 204);
    })
    .get('/:id/members', async (c) => {
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'read');
      return c.json(await listMembers(db, workspace.id, now()));
    })
    .get('/:id/activity', async (c) => {
      const query = parseInput(activityQuerySchema, c.req.query());
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'read');
      return c.json(await listActivity(db, workspace.id, query));
    })
    .post('/:id/invitations', smallBody, async (c) => {
      const body = await readJson(c, invitationSchema);
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'members.manage');
      // Each invitation mails someone on our behalf: counted per account.
      await countRequest(c, db, `${INVITATION_RATE.name}:${user.id}`, INVITATION_RATE);
      const { invitation, token } = await inviteMember(db, workspace, user.id, body, now());
      const link = new URL('/invitations/accept', deps.publicUrl ?? new URL(c.req.url).origin);
      link.searchParams.set('token', token);
      try {
        await deps.mailer?.send(
          invitationMail({
            to: invitation.email,
            workspaceName: workspace.name,
            inviter: user.displayName ?? user.email ?? 'A DangleWatch user',
            role: ROLE_LABELS[invitation.role],
            link: link.toString(),
            days: INVITATION_DAYS,
          }),
        );
      } catch (error) {
        // The invitation stands: Resend sends a new link once mail works again.
        c.get('logger').warn({ err: error }, 'invitation e-mail not sent');
      }
      await audit(db, {
        userId: user.id,
        workspaceId: workspace.id,
        action: 'member.invited',
        detail: { email: invitation.email, role: invitation.role },
        ip: c.get('clientAddress'),
      });
      return c.json({ invitation }, 201);
    })
    .delete('/:id/invitations/:invitationId', async (c) => {
      const user = await currentUser(db, c.var);
      const workspace = await access(c.req.param('id'), user.id, 'members.manage');
      const revoked = await revokeInvitation(db, workspace.id, c.req.param('invitationId'), now());
      await audit(db, {
        userId: user.id,
        workspaceId: workspace.id,
        action: 'invitation.revoked',
        detail: { invitationId: revoked.id, email: revoked.email },
        ip: c.get('clientAddress'),
      });
      return c.body(null, 204);
    })
    .patch('/:id/members/:userId', smallBody, async (c) => {
      const { role, alertsEmail } = await readJson(c, memberUpdateSchema);
      const user = await currentUser(db, c.var);
      const target = c.req.param('userId');
      const workspace = await access(
        c.req.param('id'),
        user.id,
        role === undefined ? 'read' : 'members.manage',
      );
      if (alertsEmail !== undefined && target !== user.id) {
        throw new ServiceError('forbidden', 'OWN_ALERTS_ONLY', WORKSPACE_MESSAGES.ownAlertsOnly);
      }
      const changed = role === undefined ? undefined : await changeRole(db, workspace, target, role);
      let member = changed?.member;
      if (role !== undefined) {
        await audit(db, {
          userId: user.id,
          workspaceId: workspace.id,
          action: 'member.role_changed',
          detail: { member: target, role },
          ip: c.get('clientAddress'),
        });
        await tellOwnersOfDisabledWebhooks(c, db, deps, changed?.disabledWebhooks ?? []);
      }
      if (alertsEmail !== undefined) member = await setMemberAlerts(db, workspace.id, target, alertsEmail);
      return c.json({ member });
    })
    .delete('/:id/members/:userId', async (c) => {
      const user = await currentUser(db, c.var);
      const leaving = c.req.param('userId') === user.id;
      // Anyone may leave; removing someone else is the members' manager's.
      const workspace = await access(c.req.param('id'), user.id, leaving ? 'read' : 'members.manage');
      const { disabledWebhooks } = await removeMember(db, workspace, c.req.param('userId'));
      await audit(db, {
        userId: user.id,
        workspaceId: workspace.id,
        action: 'member.removed',
        detail: { member: c.req.param('userId') },
        ip: c.get('clientAddress'),
      });
      await tellOwnersOfDisabledWebhooks(c, db, deps, disabledWebhooks);
      return c.body(null, 204);
    });
}

/** POST /api/invitations/accept: the signed-in account joins the workspace of the link. */
export function invitationRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>().use(requireAuth(auth)).post('/accept', smallBody, async (c) => {
    const { token } = await readJson(c, acceptInvitationSchema);
    const user = await currentUser(db, c.var);
    const { email, email_verified } = c.var.token;
    const workspace = await acceptInvitation(
      db,
      user,
      { email, emailVerified: email_verified === true },
      token,
      now(),
    );
    await audit(db, {
      userId: user.id,
      workspaceId: workspace.id,
      action: 'invitation.accepted',
      detail: { role: workspace.role },
      ip: c.get('clientAddress'),
    });
    return c.json({ workspace });
  });
}
