import { and, eq } from 'drizzle-orm';
import { type ProviderCallOptions, ProviderError, type ProviderId } from '../../connectors/dns/provider.ts';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones, domains } from '../../db/schema.ts';
import { providers } from '../../scanner/zone/providers/index.ts';
import { openCredential } from '../connections/credentials.ts';
import { markReadFailed, readSucceeded } from '../connections/reads.ts';
import { type InventoryUpdate, replaceInventory } from '../domains/inventory.ts';
import { type ScanQueue, scanNewRecords } from '../domains/scan-requests.ts';
import type { ScanRow } from '../domains/views.ts';
import { workspaceOwner, workspaceTier } from '../workspaces/workspaces.ts';
import { applyZoneProof, type ZoneOwnership } from './zone-ownership.ts';
import { checkZoneProof } from './zone-proof.ts';

type ConnectionRow = typeof dnsConnections.$inferSelect;

export interface ZoneSync {
  zone: string;
  domainId: string;
  update: InventoryUpdate;
  ownership: ZoneOwnership;
  /** The scan of what this read brought (see scanNewRecords), when one was started. */
  scan?: ScanRow;
}

export interface SyncOptions {
  providerOptions: ProviderCallOptions;
  /** The scan resolvers: the public NS set of each zone is asked through them. */
  resolvers?: string[];
  /** Where the first scan of a domain that a sync proves goes. */
  queue: ScanQueue;
  /** Who the audit log names, and whose first scan it is; the workspace's owner when absent. */
  actorId?: string;
  /** Only this zone of the connection. */
  only?: string;
}

/**
 * Reads again every linked zone of a connection and stores each as its domain's inventory, then
 * checks again whether public DNS delegates the zone to the provider (the zone's proof of
 * ownership, see zone-proof.ts), and scans what the read brought. A provider failure keeps the
 * last good inventory and marks the connection failing since its first failure, with the
 * provider's own words; a success clears it.
 */
export async function syncConnection(
  db: Db,
  key: Buffer,
  connection: ConnectionRow,
  options: SyncOptions,
  now: Date,
): Promise<ZoneSync[]> {
  const providerId = connection.provider as ProviderId;
  const provider = providers[providerId];
  const credentials = openCredential(key, 'dns', { ...connection, service: connection.provider });
  const links = await db
    .select({ link: dnsConnectionZones, domain: domains })
    .from(dnsConnectionZones)
    .innerJoin(domains, eq(domains.id, dnsConnectionZones.domainId))
    .where(
      and(
        eq(dnsConnectionZones.connectionId, connection.id),
        options.only ? eq(dnsConnectionZones.zone, options.only) : undefined,
      ),
    );
  const workspace = {
    id: connection.workspaceId,
    tier: await workspaceTier(db, { id: connection.workspaceId }),
  };
  const actorId = options.actorId ?? (await workspaceOwner(db, connection.workspaceId));
  const synced: ZoneSync[] = [];
  try {
    for (const { link, domain } of links) {
      const records = provider.readZone(credentials as never, link.zone, options.providerOptions);
      const update = await replaceInventory(db, domain.id, connection.provider, records, now);
      const proof = await checkZoneProof(providerId, credentials, link.zone, options);
      const ownership = actorId
        ? await applyZoneProof(db, options.queue, {
            workspace,
            actorId,
            link,
            domain,
            proof,
            now,
            resolvers: options.resolvers,
          })
        : { domain, newlyVerified: false, firstScan: false };
      // A domain proven just now got its first scan of every record instead.
      const scan = ownership.firstScan
        ? undefined
        : await scanNewRecords(db, options.queue, {
            workspace,
            domain: ownership.domain,
            full: update.baseline || ownership.newlyVerified,
            names: update.changedNames,
            now,
          });
      synced.push({ zone: link.zone, domainId: domain.id, update, ownership, scan });
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    await markReadFailed(db, 'dns', connection, error, now);
    throw error;
  }
  await db
    .update(dnsConnections)
    .set({ ...readSucceeded(now), lastUsedAt: now })
    .where(eq(dnsConnections.id, connection.id));
  return synced;
}
