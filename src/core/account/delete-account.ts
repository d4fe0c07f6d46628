import { eq, inArray, lt, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import {
  deletedAccounts,
  mailingListSignups,
  scans,
  users,
  webhookDeliveries,
  webhooks,
  workspaces,
} from '../../db/schema.ts';
import { accountLock } from '../users/users.ts';
import { teamsOfLeavingAccount } from '../workspaces/members.ts';

/** Lifts an account's tombstone once its sign-in account is deleted, or could not be. */
export async function forgetDeletion(db: Db, userId: string): Promise<void> {
  await db.delete(deletedAccounts).where(eq(deletedAccounts.uid, userId));
}

/** Tombstones a process left behind (it stopped between the rows and Firebase), after a day. */
export async function purgeDeletedAccounts(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .delete(deletedAccounts)
    .where(lt(deletedAccounts.deletedAt, new Date(now.getTime() - 86_400_000)))
    .returning({ uid: deletedAccounts.uid });
  return rows.length;
}

/**
 * Removes every row of the user: the account row and its personal workspace, and the team
 * workspaces it is alone in (domains, scans, findings, webhooks and their deliveries, API keys and
 * the audit log go with them by cascade), their queued jobs, their
 * rate-limit counters and their mailing-list sign-up. One transaction: all or nothing.
 */
export async function deleteAccountRows(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(accountLock(userId));
    // Kept until the sign-in account is deleted too (see deletedAccounts).
    await tx.insert(deletedAccounts).values({ uid: userId }).onConflictDoNothing();
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    // The personal workspace (its id is the uid) and the team workspaces the account is alone in.
    const gone = [userId, ...(await teamsOfLeavingAccount(tx as unknown as Db, userId)).alone];
    const scanIds = tx
      .select({ id: sql`${scans.id}::text` })
      .from(scans)
      .where(inArray(scans.workspaceId, gone));
    const deliveryIds = tx
      .select({ id: sql`${webhookDeliveries.id}::text` })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(inArray(webhooks.workspaceId, gone));
    // The queue lives in the same database once a worker has run (pg-boss's own schema).
    const [queue] = await queryRows<{ exists: boolean }>(
      tx as unknown as Db,
      sql`select to_regclass('pgboss.job') is not null as exists`,
    );
    if (queue?.exists) {
      await tx.execute(
        sql`delete from pgboss.job where data->>'scanId' in (${scanIds}) or data->>'deliveryId' in (${deliveryIds})`,
      );
    }
    // Per-user counters are keyed '<name>:<user id>'.
    const suffix = `:${userId}`;
    await tx.execute(sql`delete from rate_limits where right(key, ${suffix.length}) = ${suffix}`);
    if (user?.email) {
      await tx
        .delete(mailingListSignups)
        .where(sql`lower(${mailingListSignups.email}) = ${user.email.toLowerCase()}`);
    }
    await tx.delete(users).where(eq(users.id, userId));
    await tx.delete(workspaces).where(inArray(workspaces.id, gone));
  });
}
