import { Hono } from 'hono';
import { type ApiKeyRow, createApiKey, listApiKeys, revokeApiKey } from '../../core/api-keys/api-keys.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import type { ApiKeyView, CreatedApiKey } from '../../model/contract.ts';
import { createApiKeySchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

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
      const keys = await listApiKeys(db, await sessionContext(db, c));
      return c.json({ keys: keys.map(apiKeyView) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const { name } = await readJson(c, createApiKeySchema);
      const { row, secret } = await createApiKey(db, await sessionContext(db, c), name);
      const body: CreatedApiKey = { key: apiKeyView(row), secret };
      return c.json(body, 201);
    })
    .delete('/:id', async (c) => {
      const row = await revokeApiKey(db, await sessionContext(db, c), c.req.param('id'), new Date());
      return c.json({ key: apiKeyView(row) });
    });
}
