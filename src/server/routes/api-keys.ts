import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { newApiKey } from '../../core/api-keys/key.ts';
import { audit } from '../../core/audit.ts';
import { API_KEY_LIMIT, BODY_LIMIT_KB } from '../../core/limits.ts';
import { currentUser, underUserLock } from '../../core/users/users.ts';
import type { Db } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import { API_ACCESS_MESSAGES } from '../../model/api-access.ts';
import type { ApiKeyView, CreatedApiKey } from '../../model/contract.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { createApiKeySchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';

type ApiKeyRow = typeof apiKeys.$inferSelect;

function apiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The signed-in user's keys for the public API (Settings → API): create (the secret is answered
 * this once; only its hash is kept), list, revoke. Revoking keeps the row, so the list still says
 * when a key stopped working. Listing and revoking stay open on every plan, so a user who
 * downgraded can still clean up.
 */
export function apiKeyRoutes(db: Db, auth: AuthDeps | undefined) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const user = await currentUser(db, c.var);
      const rows = await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.userId, user.id))
        .orderBy(asc(apiKeys.createdAt));
      return c.json({ keys: rows.map(apiKeyView) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const { name } = await readJson(c, createApiKeySchema);
      const user = await currentUser(db, c.var);
      const plan = getPlanForTier(user.tier);
      if (plan.limits.apiCallsPerHour === 0) {
        throw new ApiError(403, 'PLAN_REQUIRED', API_ACCESS_MESSAGES.planRequired(plan.name));
      }
      const { row, secret } = await underUserLock(db, user.id, async (tx) => {
        const [active] = await tx
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
        if (Number(active?.n ?? 0) >= API_KEY_LIMIT) {
          throw new ApiError(409, 'API_KEY_LIMIT', API_ACCESS_MESSAGES.keyLimit(API_KEY_LIMIT));
        }
        const { secret, prefix, hash } = newApiKey();
        const [row] = await tx.insert(apiKeys).values({ userId: user.id, name, prefix, hash }).returning();
        if (!row) throw new Error('insert returned no API key');
        return { row, secret };
      });
      await audit(db, {
        userId: user.id,
        action: 'api_key.created',
        detail: { id: row.id, name, prefix: row.prefix },
        ip: c.get('clientAddress'),
      });
      const body: CreatedApiKey = { key: apiKeyView(row), secret };
      return c.json(body, 201);
    })
    .delete('/:id', async (c) => {
      const user = await currentUser(db, c.var);
      const id = c.req.param('id');
      const own = and(eq(apiKeys.id, id), eq(apiKeys.userId, user.id));
      const [row] = z.uuid().safeParse(id).success ? await db.select().from(apiKeys).where(own) : [];
      if (!row) throw new ApiError(404, 'NOT_FOUND', 'API key not found');
      // Revoking twice changes nothing: the first revocation's time stands.
      const [revoked] = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(own, isNull(apiKeys.revokedAt)))
        .returning();
      if (revoked) {
        await audit(db, {
          userId: user.id,
          action: 'api_key.revoked',
          detail: { id: row.id, name: row.name, prefix: row.prefix },
          ip: c.get('clientAddress'),
        });
      }
      return c.json({ key: apiKeyView(revoked ?? row) });
    });
}
