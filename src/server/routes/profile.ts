import { Hono } from 'hono';
import { z } from 'zod';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { profileOf, setDisplayName, upsertUser } from '../../core/users/users.ts';
import type { Db } from '../../db/client.ts';
import { DISPLAY_NAME_MAX } from '../../model/profile.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';

const EMPTY = 'Display name cannot be empty';

const bodySchema = z.object({ displayName: z.unknown().optional() });

/** The signed-in user's own profile: only the display name is editable. */
export function profileRoutes(db: Db, auth: AuthDeps | undefined) {
  return new Hono<AuthedEnv>().patch(
    '/profile',
    requireAuth(auth),
    limitBody(BODY_LIMIT_KB.small),
    async (c) => {
      const body = await readJson(c, bodySchema);
      // Checked by hand so the answer carries its fixed message (docs/fixed-contract.md).
      const displayName = typeof body.displayName === 'string' ? body.displayName.trim() : '';
      if (!displayName) throw new ApiError(400, 'VALIDATION_ERROR', EMPTY);
      if (displayName.length > DISPLAY_NAME_MAX) {
        throw new ApiError(
          400,
          'VALIDATION_ERROR',
          `Display name must be at most ${DISPLAY_NAME_MAX} characters`,
        );
      }
      const token = c.get('token');
      await upsertUser(db, token);
      const row = await setDisplayName(db, token.uid, displayName);
      if (!row) throw new ApiError(404, 'USER_NOT_FOUND', 'No such user');
      return c.json({ user: profileOf(row) });
    },
  );
}
