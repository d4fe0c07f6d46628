import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { FindingRef, FindingView } from '../../model/contract.ts';
import { PROOF_MAX_AGE_MS } from '../../model/proof.ts';
import { reproveFinding } from '../../scanner/proof/reprove.ts';
import type { EngineSettings } from '../engine-settings.ts';
import type { AlertChanges } from './alert-message.ts';

const samePlace = (a: FindingRef, b: FindingView) =>
  a.subdomain === b.subdomain &&
  a.recordType === b.recordType &&
  a.target === b.target &&
  a.service === b.service;

/** Asks the provider again about a claimable finding; tests give their own engine settings. */
export type Reprove = (finding: FindingView) => Promise<FindingView>;

export const reproveWith =
  (engine: EngineSettings): Reprove =>
  (finding) =>
    reproveFinding(finding, engine);

/**
 * The alert's new and worse findings with their proofs; a finding the alert would call claimable
 * on a proof older than a day (or none) is asked about again first, and called what the answer
 * makes it. Without a way to ask (no engine settings) it is called likely: a day-old answer is
 * not proof of today. A new answer is written to the finding, so the dashboard says the same.
 */
export async function provenAlert(
  db: Db,
  scan: { workspaceId: string; domain: string; findings: FindingView[] },
  alert: AlertChanges,
  reprove: Reprove | undefined,
  now = Date.now(),
): Promise<AlertChanges> {
  const settle = async <R extends FindingRef>(ref: R): Promise<R & { proof: FindingView['proof'] }> => {
    const finding = scan.findings.find((f) => samePlace(ref, f));
    const proof = finding?.proof ?? null;
    const fresh = proof && now - Date.parse(proof.checkedAt) <= PROOF_MAX_AGE_MS;
    if (ref.status !== 'claimable' || !finding || fresh) return { ...ref, proof };
    if (!reprove) return { ...ref, status: 'likely', proof: null };
    const again = await reprove(finding);
    await db
      .update(findings)
      .set({ latest: again })
      .where(
        and(
          eq(findings.workspaceId, scan.workspaceId),
          eq(findings.domain, scan.domain),
          eq(findings.subdomain, finding.subdomain),
          sql`${findings.latest}->>'recordType' = ${finding.recordType}`,
          sql`${findings.latest}->>'target' = ${finding.target}`,
          sql`${findings.latest}->>'service' = ${finding.service}`,
          isNull(findings.resolvedAt),
        ),
      );
    return { ...ref, status: again.status, proof: again.proof ?? null };
  };
  const settled = {
    new: await Promise.all(alert.new.map(settle)),
    worse: await Promise.all(alert.worse.map(settle)),
    resolved: alert.resolved,
  };
  // A finding that is no longer worse than it was is no change to tell about.
  const RANK = { review: 0, likely: 1, claimable: 2 } as const;
  return { ...settled, worse: settled.worse.filter((f) => RANK[f.status] > RANK[f.from.status]) };
}
