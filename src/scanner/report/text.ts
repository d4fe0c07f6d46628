import { fingerprintsLine } from '../../model/fingerprint-sources.ts';
import { proofSentence } from '../../model/proof.ts';
import { scanErrorSentence, uncheckedNames } from '../../model/scan-errors.ts';
import type { Detected, Risk, ScanError, ScanResult } from '../types.ts';

const HEADINGS: Record<Risk, string> = {
  high: 'HIGH RISK: someone else can take these over now',
  medium: 'MEDIUM RISK: probably claimable, needs a look',
  low: 'LOW RISK: stale records to review',
};

function wrap(text: string, indent: string, width = 100) {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width - indent.length) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

function block(finding: Detected) {
  return [
    `  ${finding.subdomain}  ${finding.recordType} → ${finding.target}`,
    `    ${finding.service} · ${finding.status}`,
    ...(finding.proof
      ? [wrap(`${proofSentence(finding.proof)} (checked ${finding.proof.checkedAt})`, '    ')]
      : []),
    wrap(finding.explanation, '    '),
    wrap(`Fix: ${finding.remediation}`, '    '),
    wrap(`Proof: ${finding.proofOfConcept}`, '    '),
    '    Evidence:',
    ...finding.evidence.map((line) => wrap(`- ${line}`, '      ')),
  ].join('\n');
}

/** Findings grouped by risk, highest first, each with its explanation and fix; lines of text. */
export function renderFindings(findings: readonly Detected[]): string[] {
  if (findings.length === 0) return ['No dangling records found.', ''];
  const out: string[] = [];
  for (const risk of ['high', 'medium', 'low'] as const) {
    const group = findings.filter((f) => f.risk === risk);
    if (group.length === 0) continue;
    out.push(`${HEADINGS[risk]} (${group.length})`, '', ...group.map((f) => `${block(f)}\n`));
  }
  return out;
}

/** Errors shown in full; past them, a count (the JSON report has every one). */
const ERRORS_SHOWN = 20;

/** The checks a scan could not finish and the lookups that failed, a sentence each; lines of text. */
export function renderErrors(errors: readonly ScanError[]): string[] {
  if (errors.length === 0) return [];
  const out = [`Could not finish every check (${errors.length}):`];
  for (const e of errors.slice(0, ERRORS_SHOWN)) out.push(wrap(`- ${scanErrorSentence(e)}`, '  '));
  if (errors.length > ERRORS_SHOWN) out.push(`  … and ${errors.length - ERRORS_SHOWN} more`);
  out.push('');
  return out;
}

/** "120 names checked", and how many could not be, when some could not. */
export function namesLine(checked: number, errors: readonly ScanError[], names: readonly string[]) {
  const unchecked = errors.length > 0 ? uncheckedNames(errors, names).length : 0;
  return `${checked} names checked${unchecked > 0 ? `, ${unchecked} could not be checked` : ''}`;
}

/** The default, human-readable report: findings grouped by risk, each with its explanation and fix. */
export function renderReport(result: ScanResult) {
  const sources = fingerprintsLine(result.fingerprints);
  const out: string[] = [
    `DangleWatch scan of ${result.domain}`,
    `${namesLine(result.subdomains.length, result.errors, result.subdomains)}, ${result.findings.length} findings, ` +
      `${result.stats.filtered} dropped by validation (Filtered FP), ${result.stats.dnsQueries} DNS queries` +
      (result.stats.wildcard ? ', wildcard zone detected' : ''),
    ...(sources ? [sources] : []),
    '',
  ];
  out.push(...renderFindings(result.findings), ...renderErrors(result.errors));
  return out.join('\n');
}
