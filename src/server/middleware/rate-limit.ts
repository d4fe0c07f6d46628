import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { type Db, queryRows } from '../../db/client.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';

export interface RateLimitRule {
  /** Names the counter, so several limited routes keep separate budgets. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * A fixed-window limit per client address. The counter lives in the database so that every API
 * process sees the same count; one upsert per request keeps it atomic.
 */
export function rateLimit(db: Db, rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = `${rule.name}:${c.get('clientAddress')}`;
    const [row] = await queryRows<{ count: number; reset_at: string | Date }>(
      db,
      sql`
      insert into rate_limits (key, count, reset_at)
      values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
      on conflict (key) do update set
        count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
        reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
      returning count, reset_at`,
    );
    if (!row) throw new Error('rate limit upsert returned no row');
    const resetSeconds = Math.ceil(new Date(row.reset_at).getTime() / 1000);
    const remaining = Math.max(0, rule.limit - row.count);
    c.header('X-RateLimit-Limit', String(rule.limit));
    c.header('X-RateLimit-Remaining', String(remaining));
    c.header('X-RateLimit-Reset', String(resetSeconds));
    if (row.count > rule.limit) {
      const retryAfter = Math.max(1, resetSeconds - Math.floor(Date.now() / 1000));
      throw new ApiError(429, 'RATE_LIMITED', 'Rate limit exceeded', {
        headers: {
          'X-RateLimit-Limit': String(rule.limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(resetSeconds),
          'Retry-After': String(retryAfter),
        },
      });
    }
    await next();
  };
}
