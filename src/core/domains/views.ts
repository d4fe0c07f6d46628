import type { domains, findings, scans } from '../../db/schema.ts';
import { UNTIL_RECORD_CHANGES } from '../../model/acceptance.ts';
import {
  DEFAULT_SCAN_OPTIONS,
  type DomainStatus,
  type DomainView,
  type FindingRecord,
  type InventorySource,
  type InventorySummary,
  type OpenFindingCounts,
  type ScanStatus,
  type ScanView,
} from '../../model/contract.ts';
import { NO_OPEN_FINDINGS, openCount } from '../../model/open-findings.ts';
import { findingKey } from '../findings/key.ts';
import { txtRecordName, txtValue } from './ownership.ts';
import { OVER_PLAN_LIMIT_MESSAGE } from './plan-limit.ts';

export type DomainRow = typeof domains.$inferSelect;
export type ScanRow = typeof scans.$inferSelect;
type FindingRow = typeof findings.$inferSelect;

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A scan as lists read it: without its names (thousands, for a big zone) and lookup errors. */
type ScanListRow = Omit<ScanRow, 'subdomains' | 'scanErrors'>;

/** A scan row in the scan service's field names; the names and errors only from a whole row. */
export function scanView(row: ScanListRow): ScanView;
export function scanView(row: ScanRow, options: { withSubdomains?: boolean }): ScanView;
export function scanView(row: ScanListRow | ScanRow, options: { withSubdomains?: boolean } = {}): ScanView {
  return {
    scan_id: row.id,
    domain: row.domain,
    status: row.status as ScanStatus,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    duration_seconds: row.durationSeconds,
    subdomains_scanned: row.subdomainsScanned,
    vulnerabilities_found: row.vulnerabilitiesFound,
    critical_count: row.criticalCount,
    false_positives_filtered: row.falsePositivesFiltered,
    error: row.error,
    progress: row.progress ?? null,
    scan_config: row.config ?? DEFAULT_SCAN_OPTIONS,
    findings: row.findings.map((f) => ({ ...f, key: findingKey(row.workspaceId, f) })),
    changes: row.changes ?? null,
    partial: Boolean(row.config?.names),
    namesChecked: row.status === 'completed' ? row.subdomainsScanned : (row.progress?.checked ?? 0),
    fingerprints: row.fingerprints ?? null,
    ...(options.withSubdomains && 'subdomains' in row
      ? { subdomains: row.subdomains, errors: row.scanErrors }
      : {}),
  };
}

/** A domain row with its latest scan and its open findings now, as the Domains screen shows it. */
export function domainView(
  row: DomainRow,
  latest: ScanRow | undefined,
  open: OpenFindingCounts = NO_OPEN_FINDINGS,
  sources: InventorySummary['sources'] = [],
  full?: ScanRow,
): DomainView {
  const lastEnded = latest?.completedAt ?? null;
  const pausedReason = row.pausedReason ?? (row.overPlanLimit ? OVER_PLAN_LIMIT_MESSAGE : null);
  return {
    id: row.id,
    domain: row.domain,
    status: row.status as DomainStatus,
    verificationMethod: 'dns',
    verificationToken: row.verificationToken,
    txtRecord: { type: 'TXT', name: txtRecordName(row.domain), value: txtValue(row.verificationToken) },
    addedAt: row.createdAt.toISOString(),
    verifiedAt: iso(row.verifiedAt),
    proof: row.status === 'verified' ? ((row.proof as DomainView['proof']) ?? 'txt') : null,
    lastScanAt: iso(lastEnded ?? latest?.startedAt ?? null),
    nextScanAt: row.status === 'verified' && !pausedReason ? iso(row.nextScanAt) : null,
    vulnerabilitiesCount: openCount(open),
    openFindings: open,
    isActive: row.status === 'verified' && pausedReason === null,
    pausedReason,
    overPlanLimit: row.overPlanLimit,
    inventory:
      row.inventorySource && row.inventoryReadAt
        ? {
            source: row.inventorySource as InventorySource,
            readAt: row.inventoryReadAt.toISOString(),
            records: row.inventoryRecords,
            sources,
          }
        : null,
    lastScanId: latest?.id ?? null,
    scanStatus: (latest?.status as ScanStatus | undefined) ?? null,
    subdomainsScanned: latest ? latest.subdomainsScanned : null,
    criticalCount: latest ? latest.criticalCount : null,
    falsePositivesFiltered: latest ? latest.falsePositivesFiltered : null,
    durationSeconds: latest?.durationSeconds ?? null,
    fullScan:
      latest?.config?.names && full
        ? {
            id: full.id,
            status: full.status as ScanStatus,
            at: iso(full.completedAt ?? full.startedAt ?? full.createdAt) as string,
            subdomainsScanned: full.subdomainsScanned,
            falsePositivesFiltered: full.falsePositivesFiltered,
            durationSeconds: full.durationSeconds,
          }
        : null,
    scanConfig: row.scanConfig,
    alerts: {
      email: row.alertsEmail,
      webhooks: row.alertsWebhook,
      minStatus: row.alertMinStatus,
    },
    // Before verification: why it failed, or why a linked zone is not proof yet.
    error: row.status === 'verified' ? (latest?.error ?? null) : row.verificationError,
  };
}

/** A finding with its history across scans (GET /api/findings). */
export function findingRecord(row: FindingRow): FindingRecord {
  return {
    id: row.id,
    key: findingKey(row.workspaceId, row.latest),
    domain: row.domain,
    finding: row.latest,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    accepted: row.acceptedAt
      ? {
          at: row.acceptedAt.toISOString(),
          by: row.acceptedBy,
          note: row.acceptedNote ?? '',
          until: row.acceptedUntilRecordChanges ? UNTIL_RECORD_CHANGES : iso(row.acceptedUntil),
        }
      : null,
    acceptanceEnded: row.acceptedAt ? null : (row.lapsedAcceptance ?? null),
    openedByScanId: row.openedByScanId,
    resolvedByScanId: row.resolvedByScanId,
  };
}
