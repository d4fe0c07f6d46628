import { Hono } from 'hono';
import { z } from 'zod';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import {
  authUserResponse,
  currentUser,
  mergeSettings,
  recordSignIn,
  setPrimaryDomain,
  upsertUser,
} from '../../core/users/users.ts';
import type { Db } from '../../db/client.ts';
import { type AccountSettings, SETTINGS_DIGESTS, SETTINGS_THEMES } from '../../model/account-settings.ts';
import { checkDomainFormat } from '../../model/domain-input.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';

const settingsSchema = z.strictObject({
  settings: z.strictObject(
    {
      emailAlerts: z.boolean().optional(),
      digest: z.enum(SETTINGS_DIGESTS).optional(),
      theme: z.enum(SETTINGS_THEMES).optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'settings must be an object' : undefined) },
  ) satisfies z.ZodType<AccountSettings>,
});

const smallBody = limitBody(BODY_LIMIT_KB.standard);

/** The auth service: the browser's configuration, sign-in bookkeeping, user and quota. */
export function authRoutes(db: Db, auth: AuthDeps | undefined) {
  const now = () => new Date((auth?.now ?? Date.now)());
  return new Hono<AuthedEnv>()
    .get('/config', (c) => {
      if (!auth) throw new ApiError(503, 'AUTH_NOT_CONFIGURED', 'Sign-in is not configured on this server');
      c.header('Cache-Control', 'no-cache');
      return c.json(auth.publicConfig);
    })
    .post('/verify', requireAuth(auth), async (c) => {
      const row = await recordSignIn(db, c.get('token'), c.get('clientAddress'));
      return c.json(await authUserResponse(db, row, now()));
    })
    .get('/user', requireAuth(auth), async (c) => {
      return c.json(await authUserResponse(db, await currentUser(db, c.var), now()));
    })
    .post('/domain', requireAuth(auth), smallBody, async (c) => {
      const body = await readJson(c, z.object({ domain: z.unknown().optional() }));
      // The one domain rule of the dashboard (no IP literals, localhost or reserved names), with
      // this call's fixed message, 'Invalid domain format: <domain>'.
      const check = checkDomainFormat(typeof body.domain === 'string' ? body.domain : '');
      if (!check.ok) {
        throw new ApiError(400, 'VALIDATION_ERROR', `Invalid domain format: ${String(body.domain ?? '')}`);
      }
      const domain = check.domain;
      const token = c.get('token');
      await upsertUser(db, token);
      await setPrimaryDomain(db, token.uid, domain);
      return c.json({ domain });
    })
    .patch('/settings', requireAuth(auth), smallBody, async (c) => {
      const { settings } = await readJson(c, settingsSchema);
      const token = c.get('token');
      await upsertUser(db, token);
      return c.json({ settings: await mergeSettings(db, token.uid, settings) });
    });
}
