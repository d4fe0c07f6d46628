import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import type { CloudAccountView, CloudProviderId } from '../../model/contract.ts';
import { disabledView } from '../connections/answerable.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';

export type CloudAccountRow = typeof cloudAccounts.$inferSelect;

export function cloudAccountView(
  row: CloudAccountRow,
  counts: { addresses: number; resources: number },
): CloudAccountView {
  return {
    id: row.id,
    provider: row.provider as CloudProviderId,
    label: row.label,
    credentialHint: row.credentialHint,
    createdAt: row.createdAt.toISOString(),
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    syncError: row.syncError,
    graceHours: row.graceHours,
    accounts: row.accounts,
    counts,
    unneededRights: row.unneededRights,
    rightsChecked: row.rightsChecked,
    disabled: disabledView(row),
  };
}

/** The workspace's own cloud account by id; another workspace's is not found, as a missing one. */
export async function ownCloudAccount(db: Db, workspaceId: string, id: string): Promise<CloudAccountRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(cloudAccounts)
        .where(and(eq(cloudAccounts.id, id), eq(cloudAccounts.workspaceId, workspaceId)))
    : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Cloud account not found');
  return row;
}
