import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';

/**
 * Leases on work that one process at a time may do, in the database every process shares. A row,
 * not an advisory lock: the embedded database has one session for everything, in which an advisory
 * lock is taken again by whoever asks, and a row needs no connection held for the work's length.
 * Times are the database's own clock, so workers whose clocks differ agree on when a lease ends.
 */

/** Takes the lease `name` for `holder` unless someone else holds it; true when taken. */
export async function takeLease(db: Db, name: string, holder: string, ms: number): Promise<boolean> {
  const rows = await queryRows<{ holder: string }>(
    db,
    sql`insert into leases (name, holder, expires_at)
        values (${name}, ${holder}, clock_timestamp() + ${ms} * interval '1 millisecond')
        on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where leases.expires_at <= clock_timestamp() or leases.holder = excluded.holder
        returning holder`,
  );
  return rows.length > 0;
}

/** Extends the holder's lease by `ms` from now; false when it ran out and someone else took it. */
export async function renewLease(db: Db, name: string, holder: string, ms: number): Promise<boolean> {
  const rows = await queryRows<{ holder: string }>(
    db,
    sql`update leases set expires_at = clock_timestamp() + ${ms} * interval '1 millisecond'
        where name = ${name} and holder = ${holder}
        returning holder`,
  );
  return rows.length > 0;
}

/** Gives the lease back, if the holder still has it. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.execute(sql`delete from leases where name = ${name} and holder = ${holder}`);
}
