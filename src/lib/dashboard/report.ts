import type { FindingView, ScanView } from '../../model/contract.ts';

/** The downloaded report of one scan: scanId, domain, timestamp, results, vulnerabilities. */
export interface ScanReport {
  scanId: string;
  domain: string;
  /** When the scan completed (its start, or creation, if it never completed). */
  timestamp: string;
  results: {
    status: ScanView['status'];
    startedAt: string | null;
    completedAt: string | null;
    durationSeconds: number | null;
    subdomainsFound: number;
    subdomains: string[];
    totalVulnerabilities: number;
    criticalCount: number;
    falsePositivesFiltered: number;
    scanConfig: ScanView['scan_config'];
    /** The fingerprints' sources and dates its verdicts rest on; null when it did not record them. */
    fingerprints: ScanView['fingerprints'];
    error: string | null;
  };
  vulnerabilities: FindingView[];
}

export function buildScanReport(scan: ScanView): ScanReport {
  return {
    scanId: scan.scan_id,
    domain: scan.domain,
    timestamp: scan.completed_at ?? scan.started_at ?? scan.created_at,
    results: {
      status: scan.status,
      startedAt: scan.started_at,
      completedAt: scan.completed_at,
      durationSeconds: scan.duration_seconds,
      subdomainsFound: scan.subdomains_scanned,
      subdomains: scan.subdomains ?? [],
      totalVulnerabilities: scan.vulnerabilities_found,
      criticalCount: scan.critical_count,
      falsePositivesFiltered: scan.false_positives_filtered,
      scanConfig: scan.scan_config,
      fingerprints: scan.fingerprints,
      error: scan.error,
    },
    vulnerabilities: scan.findings,
  };
}

/** `scan-report-{domain}-{id}.json`. */
export function reportFileName(scan: Pick<ScanView, 'domain' | 'scan_id'>): string {
  return `scan-report-${scan.domain}-${scan.scan_id}.json`;
}

/** The 'Export All' file, named with the day of the export. */
export function exportFileName(exportedAt: string): string {
  return `danglewatch-scans-${exportedAt.slice(0, 10)}.json`;
}
