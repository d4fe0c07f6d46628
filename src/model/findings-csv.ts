import type { FindingRecord } from './contract.ts';
import { proofSentence } from './proof.ts';

const COLUMNS = [
  'domain',
  'subdomain',
  'record_type',
  'target',
  'service',
  'status',
  'risk',
  'first_seen',
  'last_seen',
  'accepted_risk_note',
  'how_to_fix',
  'proof',
  'proof_checked_at',
  // Last, so every column before it stays where spreadsheets and scripts already read it.
  'key',
] as const;

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a value a spreadsheet would run
 * as a formula (= + - @, tab, carriage return) is prefixed with a quote so it stays text.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The open findings as CSV (RFC 4180, CRLF line ends), for spreadsheets and ticketing tools. */
export function findingsCsv(records: readonly FindingRecord[]): string {
  const rows = records
    .filter((r) => r.resolvedAt === null)
    .map((r) => [
      r.domain,
      r.finding.subdomain,
      r.finding.recordType,
      r.finding.target,
      r.finding.service,
      r.finding.status,
      r.finding.risk,
      r.firstSeenAt,
      r.lastSeenAt,
      r.accepted?.note ?? '',
      r.finding.remediation,
      r.finding.proof ? proofSentence(r.finding.proof) : '',
      r.finding.proof?.checkedAt ?? '',
      r.key,
    ]);
  return `${[COLUMNS, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

export function findingsCsvFileName(now: Date): string {
  return `open-findings-${now.toISOString().slice(0, 10)}.csv`;
}
