import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { FindingRecord } from '../../lib/dashboard/contract.ts';
import { acceptRiskSchema, findingQuerySchema } from '../../lib/dashboard/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { currentUser } from '../auth/users.ts';
import { ApiError } from '../errors.ts';
import { BODY_LIMIT_KB } from '../limits.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { parseInput, readJson } from '../validation.ts';

type FindingRow = typeof findings.$inferSelect;

function findingRecord(row: FindingRow): FindingRecord {
  return {
    id: row.id,
    domain: row.domain,
    finding: row.latest,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    accepted: row.acceptedAt ? { at: row.acceptedAt.toISOString(), note: row.acceptedNote ?? '' } : null,
  };
}

/** The caller's findings with their history across scans, and accepting one as a risk. */
export function findingRoutes(db: Db, auth: AuthDeps | undefined, now: () => Date) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const query = parseInput(findingQuerySchema, c.req.query());
      const user = await currentUser(db, c.get('token'));
      const rows = await db
        .select()
        .from(findings)
        .where(
          and(
            eq(findings.userId, user.id),
            query.domain ? eq(findings.domain, query.domain.trim().toLowerCase()) : undefined,
            query.state === 'open' ? isNull(findings.resolvedAt) : undefined,
            query.state === 'resolved' ? isNotNull(findings.resolvedAt) : undefined,
          ),
        )
        .orderBy(desc(findings.lastSeenAt))
        .limit(1000);
      return c.json({ findings: rows.map(findingRecord) });
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, acceptRiskSchema);
      const user = await currentUser(db, c.get('token'));
      const id = c.req.param('id');
      const [row] = /^[0-9a-f-]{36}$/i.test(id)
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
