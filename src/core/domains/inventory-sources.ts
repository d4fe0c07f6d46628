import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { zoneRecords } from '../../db/schema.ts';
import type { InventorySource, InventorySummary } from '../../model/contract.ts';

/**
 * Each source of the given domains' inventories as itself: its records and when it was last read
 * (its records' newest sighting), read last first.
 */
export async function inventorySources(
  db: Db,
  domainIds: string[],
): Promise<Map<string, InventorySummary['sources']>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .select({
      domainId: zoneRecords.domainId,
      source: zoneRecords.source,
      records: sql<number>`count(*)`.mapWith(Number),
      readAt: sql<Date>`max(${zoneRecords.lastSeenAt})`.mapWith((v) => new Date(v)),
    })
    .from(zoneRecords)
    .where(inArray(zoneRecords.domainId, domainIds))
    .groupBy(zoneRecords.domainId, zoneRecords.source);
  const out = new Map<string, InventorySummary['sources']>();
  for (const row of rows.sort((a, b) => b.readAt.getTime() - a.readAt.getTime())) {
    const list = out.get(row.domainId) ?? [];
    list.push({
      source: row.source as InventorySource,
      records: row.records,
      readAt: row.readAt.toISOString(),
    });
    out.set(row.domainId, list);
  }
  return out;
}
