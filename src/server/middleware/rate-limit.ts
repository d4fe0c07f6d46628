import type { Context, MiddlewareHandler } from 'hono';
import { countAgainst } from '../../core/rate-limits.ts';
import type { Db } from '../../db/client.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';

export interface RateLimitRule {
  /** Names the counter, so several limited routes keep separate budgets. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one request against the fixed-window counter `key` and answers with the X-RateLimit-*
 * headers; over the limit, throws 429 'Rate limit exceeded' with Retry-After.
 */
export async function countRequest(
  c: Context,
  db: Db,
  key: string,
  rule: Pick<RateLimitRule, 'limit' | 'windowSeconds'>,
): Promise<void> {
  const row = await countAgainst(db, key, rule.windowSeconds);
  const resetMs = row.resetAt.getTime();
  const resetSeconds = Math.ceil(resetMs / 1000);
  const headers = {
    'X-RateLimit-Limit': String(rule.limit),
    'X-RateLimit-Remaining': String(Math.max(0, rule.limit - row.count)),
    'X-RateLimit-Reset': String(resetSeconds),
  };
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (row.count > rule.limit) {
    // From the exact instants: whole seconds rounded on both sides could say the window plus one.
    const retryAfter = Math.max(1, Math.ceil((resetMs - Date.now()) / 1000));
    throw new ApiError(429, 'RATE_LIMITED', 'Rate limit exceeded', {
      headers: { ...headers, 'Retry-After': String(retryAfter) },
    });
  }
}

/** A fixed-window limit per client address. */
export function rateLimit(db: Db, rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await countRequest(c, db, `${rule.name}:${c.get('clientAddress')}`, rule);
    await next();
  };
}
