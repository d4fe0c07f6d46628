import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones } from '../../db/schema.ts';
import { providers } from '../../scanner/zone/providers/index.ts';
import {
  type ProviderCallOptions,
  ProviderError,
  type ProviderId,
} from '../../scanner/zone/providers/provider.ts';
import { openCredentials } from './connections.ts';
import { type InventoryUpdate, replaceInventory } from './inventory.ts';

type ConnectionRow = typeof dnsConnections.$inferSelect;

interface ZoneSync {
  zone: string;
  domainId: string;
  update: InventoryUpdate;
}

/**
 * Reads again every monitored zone of a connection and stores each as its domain's inventory. A
 * provider failure keeps the last good inventory and marks the connection failing since its first
 * failure, with the provider's own words; a success clears it.
 */
export async function syncConnection(
  db: Db,
  key: Buffer,
  connection: ConnectionRow,
  options: ProviderCallOptions,
  now: Date,
  only?: string,
): Promise<ZoneSync[]> {
  const provider = providers[connection.provider as ProviderId];
  const credentials = openCredentials(key, connection);
  const zones = await db
    .select()
    .from(dnsConnectionZones)
    .where(
      and(
        eq(dnsConnectionZones.connectionId, connection.id),
        isNotNull(dnsConnectionZones.domainId),
        only ? eq(dnsConnectionZones.zone, only) : undefined,
      ),
    );
  const synced: ZoneSync[] = [];
  try {
    for (const zone of zones) {
      const domainId = zone.domainId as string;
      const records = provider.readZone(credentials as never, zone.zone, options);
      synced.push({
        zone: zone.zone,
        domainId,
        update: await replaceInventory(db, domainId, connection.provider, records, now),
      });
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    await db
      .update(dnsConnections)
      .set({ syncError: error.message, syncFailingSince: connection.syncFailingSince ?? now })
      .where(eq(dnsConnections.id, connection.id));
    throw error;
  }
  await db
    .update(dnsConnections)
    .set({ lastSyncAt: now, lastUsedAt: now, syncError: null, syncFailingSince: null, failureMailedAt: null })
    .where(eq(dnsConnections.id, connection.id));
  return synced;
}
