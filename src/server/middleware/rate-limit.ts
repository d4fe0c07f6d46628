import { sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
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
 * Counts one request against the fixed-window counter `key` and answers with the X-RateLimit-*
 * headers; over the limit, throws 429 'Rate limit exceeded' with Retry-After. The counter lives in
 * the database so that every API process sees the same count; one upsert per request keeps it
 * atomic.
 */
export async function countRequest(
  c: Context,
  db: Db,
  key: string,
  rule: Pick<RateLimitRule, 'limit' | 'windowSeconds'>,
): Promise<void> {
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
  const resetMs = new Date(row.reset_at).getTime();
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
