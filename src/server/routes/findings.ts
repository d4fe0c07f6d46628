import { Hono } from 'hono';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { acceptRisk, listFindings } from '../../core/triage/findings.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

/** The workspace's findings with their history across scans, and accepting one as a risk. */
export function findingRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const query = parseInput(findingQuerySchema, c.req.query());
      return c.json(await listFindings(db, await sessionContext(db, c), query));
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, acceptRiskSchema);
      const finding = await acceptRisk(db, await sessionContext(db, c), c.req.param('id'), body, now());
      return c.json({ finding });
    });
}
