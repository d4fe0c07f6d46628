import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { SecretsKey } from '../../core/dns-connections/secrets.ts';
import { syncConnection } from '../../core/dns-connections/sync.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones, users, workspaceMembers } from '../../db/schema.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { type ProviderCallOptions, ProviderError } from '../../scanner/zone/providers/provider.ts';
import type { AlertDeps } from './send-alert.ts';

export const SYNC_ZONE = 'sync-zone';
const SYNC_DUE = 'sync-zones-due';
/** A connection failing this long gets its owner one e-mail (once per failing spell). */
export const SYNC_FAILURE_MAIL_MS = 3 * 24 * 60 * 60_000;

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
 * each zone's delegation checked); a provider failing for days is told to the owner once. Answers
 * how many scans the sync started.
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

async function mailIfFailingLong(
  db: Db,
  connectionId: string,
  now: Date,
  alerts: AlertDeps | undefined,
  logger: Logger,
): Promise<void> {
  const [connection] = await db.select().from(dnsConnections).where(eq(dnsConnections.id, connectionId));
  // Told to those who manage the workspace's connections: its owners and admins.
  const managers = connection
    ? await db
        .select({ email: users.email })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(
          and(
            eq(workspaceMembers.workspaceId, connection.workspaceId),
            inArray(workspaceMembers.role, ['owner', 'admin']),
            isNotNull(users.email),
          ),
        )
    : [];
  const row =
    connection && managers.length
      ? { connection, email: managers.map((m) => m.email).join(', ') }
      : undefined;
  const since = row?.connection.syncFailingSince;
  if (!alerts || !row || !since || row.connection.failureMailedAt) return;
  if (now.getTime() - since.getTime() < SYNC_FAILURE_MAIL_MS) return;
  const settings = dashboardLink(
    alerts.publicUrl,
    '/dashboard/settings',
    { tab: 'dns' },
    row.connection.workspaceId,
  );
  const { label, provider, syncError } = row.connection;
  const text = [
    `DangleWatch has not been able to read the zones of your ${provider} connection "${label}" since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `${provider} said: ${syncError ?? 'no answer'}`,
    '',
    'Until it can read them again, new or changed records in those zones are not scanned when they change (the last zone read is still scanned every day).',
    `Check or replace the credential in Settings → DNS connections: ${settings}`,
  ].join('\n');
  await alerts.mailer.send({
    to: row.email,
    subject: `DangleWatch cannot read your ${provider} zones`,
    text,
    html: text
      .split('\n')
      .map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
      .join(''),
  });
  await db.update(dnsConnections).set({ failureMailedAt: now }).where(eq(dnsConnections.id, connectionId));
  logger.info({ connectionId }, 'told the owner that zone syncs keep failing');
}

/** The worker's part: a job per connection read, and a minute's check for connections due. */
export async function registerZoneSync(
  boss: PgBoss,
  db: Db,
  queue: ScanQueue,
  settings: ZoneSyncSettings,
  logger: Logger,
  alerts?: AlertDeps,
): Promise<void> {
  await boss.work<{ connectionId: string }>(SYNC_ZONE, { localConcurrency: 2 }, async ([job]) => {
    if (!job) return;
    const started = await runZoneSync(db, queue, job.data.connectionId, settings, logger, new Date(), alerts);
    if (started)
      logger.info({ connectionId: job.data.connectionId, started }, 'scans of changed records started');
  });
  await boss.createQueue(SYNC_DUE);
  await boss.schedule(SYNC_DUE, '* * * * *');
  await boss.work(SYNC_DUE, async () => {
    const due = await dueConnections(db, new Date(), settings.syncMinutes);
    for (const connectionId of due) {
      await boss.send(SYNC_ZONE, { connectionId }, { singletonKey: connectionId });
    }
  });
}
