import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { acceptanceEnded } from '../model/acceptance.ts';
import type { FindingView } from '../model/contract.ts';
import { FINGERPRINT_KEY, findingFingerprint } from '../model/sarif.ts';

/**
 * A previous `--format json` report: what identifies each finding, and, where the team accepted
 * findings as risks, until when (`acceptedUntil`: a date-time, a date, or `record-changes`).
 */
const jsonReport = z.object({
  findings: z.array(
    z.object({
      subdomain: z.string(),
      recordType: z.string(),
      target: z.string(),
      service: z.string(),
      acceptedUntil: z.unknown().optional(),
    }),
  ),
});

/** A previous `--format sarif` report (or the dashboard's SARIF export): our fingerprint of each result. */
const sarifReport = z.object({
  version: z.literal('2.1.0'),
  runs: z.array(
    z.object({
      results: z
        .array(z.object({ partialFingerprints: z.object({ [FINGERPRINT_KEY]: z.string() }) }))
        .default([]),
    }),
  ),
});

class BaselineError extends Error {}

/**
 * The fingerprints of the findings in a baseline file, JSON or SARIF. A JSON report that carries
 * `acceptedUntil` is a list of accepted risks: an acceptance that ended by `now`, or whose expiry is
 * missing or malformed, no longer hides its finding.
 */
function baselineFingerprints(text: string, now: Date): Set<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BaselineError('is not JSON');
  }
  const sarif = sarifReport.safeParse(parsed);
  if (sarif.success) {
    return new Set(
      sarif.data.runs.flatMap((run) => run.results.map((r) => r.partialFingerprints[FINGERPRINT_KEY] ?? '')),
    );
  }
  const json = jsonReport.safeParse(parsed);
  if (json.success) {
    const dated = json.data.findings.some((f) => 'acceptedUntil' in f);
    return new Set(
      json.data.findings
        .filter((f) => !dated || !acceptanceEnded(f.acceptedUntil, now))
        .map(findingFingerprint),
    );
  }
  throw new BaselineError(
    'is neither a DangleWatch JSON report (findings with subdomain, recordType, target, service) ' +
      `nor a DangleWatch SARIF report (results with partialFingerprints['${FINGERPRINT_KEY}'])`,
  );
}

/** Reads `--baseline FILE`; the answer tells whether a finding was already in it. */
export async function readBaseline(
  path: string,
  now: Date = new Date(),
): Promise<(finding: FindingView) => boolean> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const known = baselineFingerprints(text, now);
  return (finding) => known.has(findingFingerprint(finding));
}
