import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { listFindings } from '../../core/domains/store.ts';
import { findingRecord } from '../../core/domains/views.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { currentUser } from '../../core/users/users.ts';
import { isUuid, parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';

/** The caller's findings with their history across scans, and accepting one as a risk. */
export function findingRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const query = parseInput(findingQuerySchema, c.req.query());
      const user = await currentUser(db, c.var);
      return c.json(await listFindings(db, user.id, query));
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, acceptRiskSchema);
      const user = await currentUser(db, c.var);
      const id = c.req.param('id');
      const [row] = isUuid(id)
        ? await db
            .update(findings)
            .set(
              body.accepted
                ? { acceptedAt: now(), acceptedNote: body.note ?? '' }
                : { acceptedAt: null, acceptedNote: null },
            )
            .where(and(eq(findings.id, id), eq(findings.userId, user.id)))
            .returning()
        : [];
      if (!row) throw new ApiError(404, 'NOT_FOUND', 'Finding not found');
      return c.json({ finding: findingRecord(row) });
    });
}
