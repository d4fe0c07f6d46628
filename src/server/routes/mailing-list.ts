import { Hono } from 'hono';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { mailingListSignups } from '../../db/schema.ts';
import { mailingSignupSchema } from '../../model/mailing.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { type RateLimitRule, rateLimit } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';

export function mailingListRoutes(db: Db, limit: RateLimitRule) {
  return new Hono<AppEnv>().post('/', limitBody(BODY_LIMIT_KB.small), rateLimit(db, limit), async (c) => {
    const signup = await readJson(c, mailingSignupSchema);
    const inserted = await db
      .insert(mailingListSignups)
      .values({
        email: signup.email,
        source: signup.source,
        clientTimestamp: signup.timestamp ? new Date(signup.timestamp) : null,
      })
      .onConflictDoNothing()
      .returning({ id: mailingListSignups.id });
    if (inserted.length === 0) {
      throw new ApiError(409, 'ALREADY_SUBSCRIBED', 'This e-mail address is already on the list');
    }
    c.get('logger').info({ source: signup.source }, 'mailing list sign-up');
    return c.json({ subscribed: true }, 201);
  });
}
