import { eq } from 'drizzle-orm';
import { cloudProviders } from '../../connectors/cloud/index.ts';
import {
  type CloudCallOptions,
  CloudError,
  type CloudId,
  type CloudProvider,
  type CloudSnapshot,
} from '../../connectors/cloud/provider.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import { openCredential } from '../connections/credentials.ts';
import { markReadFailed, readSucceeded } from '../connections/reads.ts';
import { storeSnapshot } from './inventory.ts';
import type { CloudAccountRow } from './store.ts';

export interface CloudSyncResult {
  addresses: number;
  resources: number;
  accounts: string[];
}

/**
 * Said on the settings page, never a reason to fail the read: a cloud that failed to answer keeps
 * what the last read learned; one that may not or cannot tell leaves the rights unchecked.
 */
async function rightsBeyondReading(
  provider: CloudProvider<never>,
  credentials: never,
  snapshot: CloudSnapshot,
  options: CloudCallOptions,
  account: CloudAccountRow,
): Promise<{ unneededRights: string[]; rightsChecked: boolean }> {
  if (!provider.unneededRights) return { unneededRights: [], rightsChecked: false };
  try {
    const rights = await provider.unneededRights(credentials, snapshot, options);
    return { unneededRights: rights ?? [], rightsChecked: rights !== null };
  } catch {
    return { unneededRights: account.unneededRights, rightsChecked: account.rightsChecked };
  }
}

/**
 * Reads everything public the account holds now and stores it as the inventory's newest sighting
 * (storeSnapshot: what it let go keeps its last one). A cloud failure keeps the inventory as it
 * was and marks the account failing since its first failure, in the cloud's own words; a success
 * clears it.
 */
export async function syncCloudAccount(
  db: Db,
  key: Buffer,
  account: CloudAccountRow,
  options: CloudCallOptions,
  now: Date,
): Promise<CloudSyncResult> {
  const cloud = account.provider as CloudId;
  const provider = cloudProviders[cloud];
  try {
    if (!provider)
      throw new CloudError(cloud, 'credentials', `${cloud} accounts cannot be read on this server yet`);
    const credentials = openCredential<never>(key, 'cloud', { ...account, service: account.provider });
    const snapshot = await provider.read(credentials, options);
    const stored = await storeSnapshot(db, account.id, cloud, snapshot, now);
    const rights = await rightsBeyondReading(provider, credentials, snapshot, options, account);
    await db
      .update(cloudAccounts)
      .set({
        accounts: snapshot.accounts,
        ...rights,
        ...readSucceeded(now),
        firstSyncAt: account.firstSyncAt ?? now,
      })
      .where(eq(cloudAccounts.id, account.id));
    return { ...stored, accounts: snapshot.accounts };
  } catch (error) {
    if (!(error instanceof CloudError)) throw error;
    await markReadFailed(db, 'cloud', account, error, now);
    throw error;
  }
}
