import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';

/**
 * Counts one more event against the fixed-window counter `key`: the count in the window and when
 * the window ends. The counter lives in the database so that every process sees the same count;
 * one upsert keeps it atomic.
 */
export async function countAgainst(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; resetAt: Date }> {
  const [row] = await queryRows<{ count: number; reset_at: string | Date }>(
    db,
    sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`,
  );
  if (!row) throw new Error('rate limit upsert returned no row');
  return { count: row.count, resetAt: new Date(row.reset_at) };
}
