import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type ProviderCallOptions, ProviderError } from '../../connectors/dns/provider.ts';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones } from '../../db/schema.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import type { ScanQueue } from '../domains/scan-requests.ts';
import { mailIfFailingLong } from './failure-mail.ts';
import type { SecretsKey } from './secrets.ts';
import { syncConnection } from './sync.ts';

export interface ZoneSyncSettings {
  secrets: SecretsKey;
  /** ZONE_SYNC_MINUTES: how often each connected zone is read again. */
  syncMinutes: number;
  providerOptions?: ProviderCallOptions;
  /** The scan resolvers, through which each zone's public delegation is checked. */
  resolvers?: string[];
}

/** Connections with a monitored zone whose last read is older than the sync interval. */
export async function dueConnections(db: Db, now: Date, syncMinutes: number): Promise<string[]> {
  const cutoff = new Date(now.getTime() - syncMinutes * 60_000);
  const rows = await db
    .selectDistinct({ id: dnsConnections.id })
    .from(dnsConnections)
    .innerJoin(dnsConnectionZones, eq(dnsConnectionZones.connectionId, dnsConnections.id))
    .where(
      and(
        isNotNull(dnsConnectionZones.domainId),
        or(isNull(dnsConnections.lastSyncAt), lt(dnsConnections.lastSyncAt, cutoff)),
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Reads a connection's zones again (syncConnection: what each read brought is scanned at once, and
 * each zone's delegation checked); a provider failing for days is told once to those who manage
 * the workspace's connections (mailIfFailingLong). Answers how many scans the sync started.
 */
export async function runZoneSync(
  db: Db,
  queue: ScanQueue,
  connectionId: string,
  settings: ZoneSyncSettings,
  logger: Logger,
  now = new Date(),
  alerts?: AlertDeps,
): Promise<number> {
  const [connection] = await db.select().from(dnsConnections).where(eq(dnsConnections.id, connectionId));
  if (!connection) return 0;
  if (!settings.secrets.key) {
    logger.warn({ connectionId }, settings.secrets.reason);
    return 0;
  }
  try {
    const synced = await syncConnection(
      db,
      settings.secrets.key,
      connection,
      { providerOptions: settings.providerOptions ?? {}, resolvers: settings.resolvers, queue },
      now,
    );
    return synced.filter((zone) => zone.scan).length;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    logger.warn({ connectionId, provider: connection.provider, reason: error.message }, 'zone sync failed');
    await mailIfFailingLong(db, connectionId, now, alerts, logger);
    return 0;
  }
}
