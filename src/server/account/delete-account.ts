import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { mailingListSignups, scans, users, webhookDeliveries, webhooks } from '../../db/schema.ts';

/**
 * Removes every row of the user: the account row (domains, scans, findings, webhooks and their
 * deliveries, API keys and the audit log go with it by cascade), their queued jobs, their
 * rate-limit counters and their mailing-list sign-up. One transaction: all or nothing.
 */
export async function deleteAccountRows(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const scanIds = tx
      .select({ id: sql`${scans.id}::text` })
      .from(scans)
      .where(eq(scans.userId, userId));
    const deliveryIds = tx
      .select({ id: sql`${webhookDeliveries.id}::text` })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhooks.userId, userId));
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
  });
}
