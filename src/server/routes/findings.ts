import { Hono } from 'hono';
import { audit } from '../../core/audit.ts';
import { acceptRisk, listFindings } from '../../core/findings/findings.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { callerIn } from '../workspace-scope.ts';

/** The caller's findings with their history across scans, and accepting one as a risk. */
export function findingRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const query = parseInput(findingQuerySchema, c.req.query());
      const { owner } = await callerIn(db, c, 'read');
      return c.json(await listFindings(db, owner.id, query));
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, acceptRiskSchema);
      const { user, owner } = await callerIn(db, c, 'findings.accept');
      const finding = await acceptRisk(db, owner.id, c.req.param('id'), body, now());
      await audit(db, {
        userId: user.id,
        workspaceId: owner.id,
        action: body.accepted ? 'finding.accepted' : 'finding.reopened',
        detail: {
          findingId: finding.id,
          domain: finding.domain,
          subdomain: finding.finding.subdomain,
          note: body.note,
        },
        ip: c.get('clientAddress'),
      });
      return c.json({ finding });
    });
}
