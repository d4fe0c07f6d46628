import type { Candidate } from '../context.ts';
import type { Detected } from '../types.ts';
import { mapLimit, sleep } from '../util/limit.ts';
import type { Progress } from './progress.ts';

/** Candidates as the scan finds them, each stamped with the moment, for the validation delay. */
export function stamped(candidates: Candidate[]): Candidate[] {
  // Most names yield none: no clock read for them.
  if (candidates.length === 0) return candidates;
  const now = performance.now();
  for (const candidate of candidates) candidate.foundAt ??= now;
  return candidates;
}

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
  progress: Progress;
}

/**
 * Checks every candidate a second time, a delay after it was found (fresh lookups, another
 * resolver, new probes); what no longer holds is dropped and counted. A candidate found early in
 * the scan has waited through the rest of it already, and is not held for the whole delay again.
 * Without validation nothing is proven, so nothing is called claimable.
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
  settings.progress.note({ phase: 'validate', done: 0, total: unique.length });
  const started = performance.now();
  const dueAt = (candidate: Candidate) => (candidate.foundAt ?? started) + settings.delayMs;
  const byDue = [...unique].sort((a, b) => dueAt(a) - dueAt(b));
  let validated = 0;
  await mapLimit(byDue, settings.width, async (candidate) => {
    const wait = dueAt(candidate) - performance.now();
    if (wait > 0) await sleep(wait, settings.signal);
    const again = await candidate.recheck();
    validated++;
    settings.progress.note({ phase: 'validate', done: validated, total: unique.length });
    if (again) findings.push({ ...candidate.finding, evidence: [...candidate.finding.evidence, again] });
    else filtered++;
  });
  return { findings, filtered };
}
