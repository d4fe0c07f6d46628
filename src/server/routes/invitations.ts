import { Hono } from 'hono';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { acceptInvitation, previewInvitation } from '../../core/members/members.ts';
import type { Db } from '../../db/client.ts';
import { acceptInvitationSchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { type RateLimitRule, rateLimit } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionActor } from '../workspace-scope.ts';

const smallBody = limitBody(BODY_LIMIT_KB.small);

/**
 * An invitation's link: POST /api/invitations/preview, public and limited per client address, tells
 * its holder who invited them to which workspace (the token in the body, never in a logged path);
 * POST /api/invitations/accept, signed in, joins the workspace.
 */
export function invitationRoutes(
  db: Db,
  auth: AuthDeps | undefined,
  now: () => Date,
  previewRate: RateLimitRule,
) {
  return new Hono<AuthedEnv>()
    .post('/preview', smallBody, rateLimit(db, previewRate), async (c) => {
      const { token } = await readJson(c, acceptInvitationSchema);
      return c.json({ invitation: await previewInvitation(db, token, now()) });
    })
    .post('/accept', requireAuth(auth), smallBody, async (c) => {
      const { token } = await readJson(c, acceptInvitationSchema);
      return c.json({ workspace: await acceptInvitation(db, await sessionActor(db, c), token, now()) });
    });
}
