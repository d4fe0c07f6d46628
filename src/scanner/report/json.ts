import type { ScanResult } from '../types.ts';

/** The document `danglewatch scan --json` prints: the contract's fields and nothing else. */
export function toJsonDocument(result: ScanResult) {
  const { domain, startedAt, completedAt, subdomains, findings, errors, fingerprints } = result;
  return { domain, startedAt, completedAt, subdomains, findings, errors, fingerprints };
}
