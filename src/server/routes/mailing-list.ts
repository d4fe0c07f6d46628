import { Hono } from 'hono';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { subscribe } from '../../core/mailing-list.ts';
import type { Db } from '../../db/client.ts';
import { mailingSignupSchema } from '../../model/mailing.ts';
import type { AppEnv } from '../env.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { type RateLimitRule, rateLimit } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';

export function mailingListRoutes(db: Db, limit: RateLimitRule) {
  return new Hono<AppEnv>().post('/', limitBody(BODY_LIMIT_KB.small), rateLimit(db, limit), async (c) => {
    const signup = await readJson(c, mailingSignupSchema);
    await subscribe(db, signup);
    c.get('logger').info({ source: signup.source }, 'mailing list sign-up');
    return c.json({ subscribed: true }, 201);
  });
}
