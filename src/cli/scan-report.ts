import type { FindingView, FingerprintSourceView, ScanView } from '../model/contract.ts';
import { csvField } from '../model/findings-csv.ts';
import { fingerprintsLine } from '../model/fingerprint-sources.ts';
import { buildSarif } from '../model/sarif.ts';
import { toJsonDocument } from '../scanner/report/json.ts';
import { namesLine, renderErrors, renderFindings, renderReport } from '../scanner/report/text.ts';
import type { ScanError, ScanResult } from '../scanner/types.ts';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A finished scan, local or on a server, as every format needs it. */
export interface ScanReport {
  /** The JSON document of the CLI contract. */
  document: {
    domain: string;
    startedAt: string | null;
    completedAt: string | null;
    subdomains: string[];
    findings: FindingView[];
    errors: ScanError[];
    /** The sources of the fingerprints the scan used, each dated; null when a server did not say. */
    fingerprints: readonly FingerprintSourceView[] | null;
  };
  /** The readable report. */
  text(): string;
}

export function localReport(result: ScanResult): ScanReport {
  return {
    document: toJsonDocument(result),
    text: () => renderReport(result),
  };
}

export function remoteReport(scan: ScanView, server: string): ScanReport {
  return {
    document: {
      domain: scan.domain,
      startedAt: scan.started_at,
      completedAt: scan.completed_at,
      subdomains: scan.subdomains ?? [],
      findings: scan.findings,
      errors: scan.errors ?? [],
      // A server older than the field does not send it.
      fingerprints: scan.fingerprints ?? null,
    },
    text: () => {
      const sources = fingerprintsLine(scan.fingerprints);
      return [
        `DangleWatch scan of ${scan.domain} on ${new URL(server).host} (scan ${scan.scan_id})`,
        `${namesLine(scan.subdomains_scanned, scan.errors ?? [], scan.subdomains ?? [])}, ${scan.findings.length} findings, ` +
          `${scan.false_positives_filtered} dropped by validation (Filtered FP)`,
        ...(sources ? [sources] : []),
        '',
        ...renderFindings(scan.findings),
        ...renderErrors(scan.errors ?? []),
      ].join('\n');
    },
  };
}

const CSV_COLUMNS = ['domain', 'subdomain', 'record_type', 'target', 'service', 'status', 'risk'];

/**
 * The report in one format. With a baseline (`known`), findings it held are marked: `known` in
 * JSON and CSV, SARIF's `baselineState`, and a list of them after the text report.
 */
export function formatReport(
  report: ScanReport,
  format: ReportFormat,
  known?: (finding: FindingView) => boolean,
): string {
  const { document } = report;
  const { findings } = document;
  switch (format) {
    case 'json': {
      const marked = known ? findings.map((f) => ({ ...f, known: known(f) })) : findings;
      return `${JSON.stringify({ ...document, findings: marked }, null, 2)}\n`;
    }
    case 'sarif': {
      const scan = {
        findings,
        status: 'completed' as const,
        started_at: document.startedAt,
        completed_at: document.completedAt,
        errors: document.errors,
        fingerprints: document.fingerprints,
      };
      return `${JSON.stringify(buildSarif(scan, undefined, known), null, 2)}\n`;
    }
    case 'csv': {
      const header = [...CSV_COLUMNS, ...(known ? ['known'] : []), 'how_to_fix'];
      const rows = findings.map((f) => [
        document.domain,
        f.subdomain,
        f.recordType,
        f.target,
        f.service,
        f.status,
        f.risk,
        ...(known ? [known(f) ? 'yes' : 'no'] : []),
        f.remediation,
      ]);
      return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
    }
    case 'text': {
      const lines = [report.text()];
      const old = known ? findings.filter(known) : [];
      if (old.length > 0) {
        lines.push(`Already in the baseline (${old.length}), not failing the run:`);
        for (const f of old)
          lines.push(`  ${f.subdomain}  ${f.recordType} → ${f.target}  (${f.service} · ${f.status})`);
        lines.push('');
      }
      return `${lines.join('\n')}\n`;
    }
  }
}
