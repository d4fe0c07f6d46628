import { and, eq, isNotNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type ProviderCallOptions, ProviderError } from '../../connectors/dns/provider.ts';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones } from '../../db/schema.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { dueForRead, runRead } from '../connections/reads.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import type { ScanQueue } from '../domains/scan-requests.ts';
import { syncConnection } from './sync.ts';

export interface ZoneSyncSettings {
  secrets: SecretsKey;
  /** ZONE_SYNC_MINUTES: how often each connected zone is read again. */
  syncMinutes: number;
  providerOptions?: ProviderCallOptions;
  /** The scan resolvers, through which each zone's public delegation is checked. */
  resolvers?: string[];
}

/** Live connections with a monitored zone whose last read is older than the sync interval. */
export async function dueConnections(db: Db, now: Date, syncMinutes: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: dnsConnections.id })
    .from(dnsConnections)
    .innerJoin(dnsConnectionZones, eq(dnsConnectionZones.connectionId, dnsConnections.id))
    .where(and(isNotNull(dnsConnectionZones.domainId), dueForRead('dns', now, syncMinutes)));
  return rows.map((r) => r.id);
}

/**
 * Reads a connection's zones again (syncConnection: what each read brought is scanned at once, and
 * each zone's delegation checked), unless it is disabled; a provider failing for days is told once
 * to those who manage the workspace's connections (runRead). Answers how many scans the sync
 * started.
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
  const synced = await runRead(
    db,
    'dns',
    connection,
    { secrets: settings.secrets, logger, now, alerts },
    (key, row) =>
      syncConnection(
        db,
        key,
        row,
        { providerOptions: settings.providerOptions ?? {}, resolvers: settings.resolvers, queue },
        now,
      ),
    (error) => error instanceof ProviderError,
  );
  return (synced ?? []).filter((zone) => zone.scan).length;
}
