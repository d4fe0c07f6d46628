import type { cloudAccounts } from '../../db/schema.ts';
import type { CloudAccountView, CloudProviderId } from '../../model/contract.ts';
import { disabledView } from '../connections/answerable.ts';

export type CloudAccountRow = typeof cloudAccounts.$inferSelect;

export function cloudAccountView(
  row: CloudAccountRow,
  counts: { addresses: number; resources: number },
  answeredBy: string | null,
): CloudAccountView {
  return {
    id: row.id,
    provider: row.provider as CloudProviderId,
    label: row.label,
    credentialHint: row.credentialHint,
    createdAt: row.createdAt.toISOString(),
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    syncError: row.syncError,
    syncErrorDetail: row.syncErrorDetail,
    graceHours: row.graceHours,
    accounts: row.accounts,
    counts,
    unneededRights: row.unneededRights,
    rightsChecked: row.rightsChecked,
    disabled: disabledView(row),
    answeredBy,
  };
}
