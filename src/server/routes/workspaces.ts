import { type Context, Hono } from 'hono';
import type { Billing } from '../../core/billing/stripe.ts';
import { BODY_LIMIT_KB, INVITATION_RATE, WORKSPACE_CREATE_RATE } from '../../core/limits.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { deleteWorkspace } from '../../core/members/delete-workspace.ts';
import {
  createWorkspace,
  inviteMember,
  removeMember,
  revokeInvitation,
  updateMember,
} from '../../core/members/members.ts';
import { parseInput } from '../../core/validation.ts';
import { listActivity } from '../../core/workspaces/activity.ts';
import { listMembers, listWorkspaces, renameWorkspace } from '../../core/workspaces/workspaces.ts';
import type { Db } from '../../db/client.ts';
import {
  activityQuerySchema,
  createWorkspaceSchema,
  invitationSchema,
  memberUpdateSchema,
  renameWorkspaceSchema,
} from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { tellOwnersOfDisabledConnections } from '../disabled-connections.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionActor, sessionContext } from '../workspace-scope.ts';

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
 * its members and invitations (accepting one is routes/invitations.ts).
 */
export function workspaceRoutes(db: Db, auth: AuthDeps | undefined, deps: WorkspaceDeps, now: () => Date) {
  /** The workspace of the path, for a member (else 404). */
  const inPath = (c: Context<AuthedEnv>) => sessionContext(db, c, c.req.param('id'));
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      return c.json({ workspaces: await listWorkspaces(db, await sessionActor(db, c)) });
    })
    .post('/', smallBody, async (c) => {
      const { name } = await readJson(c, createWorkspaceSchema);
      const actor = await sessionActor(db, c);
      await countRequest(c, db, `${WORKSPACE_CREATE_RATE.name}:${actor.userId}`, WORKSPACE_CREATE_RATE);
      return c.json({ workspace: await createWorkspace(db, actor, name, now()) }, 201);
    })
    .patch('/:id', smallBody, async (c) => {
      const { name } = await readJson(c, renameWorkspaceSchema);
      return c.json({ workspace: await renameWorkspace(db, await inPath(c), name) });
    })
    .delete('/:id', async (c) => {
      await deleteWorkspace(db, deps.billing, await inPath(c));
      return c.body(null, 204);
    })
    .get('/:id/members', async (c) => {
      return c.json(await listMembers(db, await inPath(c), now()));
    })
    .get('/:id/activity', async (c) => {
      const query = parseInput(activityQuerySchema, c.req.query());
      return c.json(await listActivity(db, await inPath(c), query));
    })
    .post('/:id/invitations', smallBody, async (c) => {
      const body = await readJson(c, invitationSchema);
      const ctx = await inPath(c);
      // Each invitation mails someone on our behalf: counted per account.
      await countRequest(c, db, `${INVITATION_RATE.name}:${ctx.actor.userId}`, INVITATION_RATE);
      const link = (token: string) => {
        const url = new URL('/invitations/accept', deps.publicUrl ?? new URL(c.req.url).origin);
        url.searchParams.set('token', token);
        return url.toString();
      };
      const mail = { mailer: deps.mailer, link, logger: c.get('logger') };
      return c.json({ invitation: await inviteMember(db, ctx, body, now(), mail) }, 201);
    })
    .delete('/:id/invitations/:invitationId', async (c) => {
      await revokeInvitation(db, await inPath(c), c.req.param('invitationId'), now());
      return c.body(null, 204);
    })
    .patch('/:id/members/:userId', smallBody, async (c) => {
      const change = await readJson(c, memberUpdateSchema);
      const { member, disabledConnections } = await updateMember(
        db,
        await inPath(c),
        c.req.param('userId'),
        change,
      );
      await tellOwnersOfDisabledConnections(c, db, deps, disabledConnections);
      return c.json({ member });
    })
    .delete('/:id/members/:userId', async (c) => {
      const { disabledConnections } = await removeMember(db, await inPath(c), c.req.param('userId'));
      await tellOwnersOfDisabledConnections(c, db, deps, disabledConnections);
      return c.body(null, 204);
    });
}
