import { and, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { integrationDeliveries } from '../../db/schema.ts';

/**
 * How long an integration's delivery log is kept, as webhook deliveries are: Settings shows the
 * last 50, and a month covers any question about a ticket. A pending one is kept whatever its age.
 */
export const INTEGRATION_DELIVERY_RETENTION_DAYS = 30;

export async function purgeIntegrationDeliveries(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - INTEGRATION_DELIVERY_RETENTION_DAYS * 86_400_000);
  const deleted = await db
    .delete(integrationDeliveries)
    .where(
      and(lt(integrationDeliveries.createdAt, cutoff), sql`${integrationDeliveries.status} <> 'pending'`),
    )
    .returning({ id: integrationDeliveries.id });
  return deleted.length;
}
