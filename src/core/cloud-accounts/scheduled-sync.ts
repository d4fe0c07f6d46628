import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type CloudCallOptions, CloudError } from '../../connectors/cloud/provider.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { dueForRead, runRead } from '../connections/reads.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import { type CloudSyncResult, syncCloudAccount } from './sync.ts';

export interface CloudSyncSettings {
  secrets: SecretsKey;
  /** CLOUD_SYNC_MINUTES: how often each cloud account is read again. */
  syncMinutes: number;
  cloudOptions?: CloudCallOptions;
}

/** Live cloud accounts whose last read is older than the sync interval, or that were never read. */
export async function dueCloudAccounts(db: Db, now: Date, syncMinutes: number): Promise<string[]> {
  const rows = await db
    .select({ id: cloudAccounts.id })
    .from(cloudAccounts)
    .where(dueForRead('cloud', now, syncMinutes));
  return rows.map((r) => r.id);
}

/**
 * Reads one cloud account again (syncCloudAccount), unless it is disabled. A cloud failure is
 * logged and left on the account for its managers to see, and told to them by e-mail once it has
 * lasted days (runRead); the next due check tries again.
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
  return runRead(
    db,
    'cloud',
    account,
    { secrets: settings.secrets, logger, now, alerts },
    (key, row) => syncCloudAccount(db, key, row, settings.cloudOptions ?? {}, now),
    (error) => error instanceof CloudError,
  );
}
