import type { Candidate } from '../context.ts';
import type { Detected, ProgressEvent } from '../types.ts';
import { mapLimit, sleep } from '../util/limit.ts';

/** One candidate per kind, name, record, target and service, however many ways it was reached. */
export function dedupe(candidates: readonly Candidate[]) {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = `${c.kind} ${c.finding.subdomain} ${c.finding.recordType} ${c.finding.target} ${c.finding.service}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface ValidateSettings {
  enabled: boolean;
  delayMs: number;
  width: number;
  signal: AbortSignal;
  progress: (event: ProgressEvent) => void;
}

/**
 * Checks every candidate a second time after a delay (fresh lookups, another resolver, new probes);
 * what no longer holds is dropped and counted. Without validation nothing is proven, so nothing is
 * called claimable.
 */
export async function validate(unique: readonly Candidate[], settings: ValidateSettings) {
  const findings: Detected[] = [];
  let filtered = 0;
  if (!settings.enabled) {
    for (const { finding } of unique) {
      findings.push({
        ...finding,
        status: finding.status === 'claimable' ? 'likely' : finding.status,
        evidence: [...finding.evidence, 'not validated (validation turned off)'],
      });
    }
    return { findings, filtered };
  }
  if (unique.length === 0) return { findings, filtered };
  settings.progress({ phase: 'validate', done: 0, total: unique.length });
  await sleep(settings.delayMs, settings.signal);
  let validated = 0;
  await mapLimit(unique, settings.width, async (candidate) => {
    const again = await candidate.recheck();
    validated++;
    settings.progress({ phase: 'validate', done: validated, total: unique.length });
    if (again) findings.push({ ...candidate.finding, evidence: [...candidate.finding.evidence, again] });
    else filtered++;
  });
  return { findings, filtered };
}
