import { eq, isNull, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type CloudCallOptions, CloudError } from '../../connectors/cloud/provider.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import type { SecretsKey } from '../dns-connections/secrets.ts';
import { mailIfCloudFailingLong } from './failure-mail.ts';
import { type CloudSyncResult, syncCloudAccount } from './sync.ts';

export interface CloudSyncSettings {
  secrets: SecretsKey;
  /** CLOUD_SYNC_MINUTES: how often each cloud account is read again. */
  syncMinutes: number;
  cloudOptions?: CloudCallOptions;
}

/** Cloud accounts whose last read is older than the sync interval, or that were never read. */
export async function dueCloudAccounts(db: Db, now: Date, syncMinutes: number): Promise<string[]> {
  const cutoff = new Date(now.getTime() - syncMinutes * 60_000);
  const rows = await db
    .select({ id: cloudAccounts.id })
    .from(cloudAccounts)
    .where(or(isNull(cloudAccounts.lastSyncAt), lt(cloudAccounts.lastSyncAt, cutoff)));
  return rows.map((r) => r.id);
}

/**
 * Reads one cloud account again (syncCloudAccount). A cloud failure is logged and left on the
 * account for its managers to see, and told to them by e-mail once it has lasted days
 * (mailIfCloudFailingLong); the next due check tries again.
 */
export async function runCloudSync(
  db: Db,
  cloudAccountId: string,
  settings: CloudSyncSettings,
  logger: Logger,
  now = new Date(),
  alerts?: AlertDeps,
): Promise<CloudSyncResult | undefined> {
  const [account] = await db.select().from(cloudAccounts).where(eq(cloudAccounts.id, cloudAccountId));
  if (!account) return undefined;
  if (!settings.secrets.key) {
    logger.warn({ cloudAccountId }, settings.secrets.reason);
    return undefined;
  }
  try {
    return await syncCloudAccount(db, settings.secrets.key, account, settings.cloudOptions ?? {}, now);
  } catch (error) {
    if (!(error instanceof CloudError)) throw error;
    logger.warn({ cloudAccountId, cloud: account.provider, reason: error.message }, 'cloud sync failed');
    await mailIfCloudFailingLong(db, cloudAccountId, now, alerts, logger);
    return undefined;
  }
}
