import { and, eq } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { domains, firstScans, scans } from '../../db/schema.ts';
import { audit } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { requestScan, type ScanQueue } from './scan-requests.ts';
import { nextScanAfter } from './schedule.ts';
import type { DomainRow } from './views.ts';

/**
 * What a verified domain's ownership stands on (see `domains.proof`): its own TXT record or zone, or
 * the proof its prover gave for the same name in another of their workspaces (`source`).
 */
export type OwnershipProof = 'txt' | 'zone' | { shared: DomainRow };

/**
 * Whether the domain's first scan is due: once per account and name for a proof of its own, so
 * removing and adding a domain again is no way to more free scans; once per workspace and name for
 * a shared proof, whose prover had their first scan where they proved it, and whose workspace has
 * not seen the domain scanned yet.
 */
async function firstScanDue(
  db: Db,
  actorId: string,
  domain: DomainRow,
  proof: OwnershipProof,
): Promise<boolean> {
  if (typeof proof === 'object') {
    const [scanned] = await db
      .select({ id: scans.id })
      .from(scans)
      .where(and(eq(scans.workspaceId, domain.workspaceId), eq(scans.domain, domain.domain)))
      .limit(1);
    return !scanned;
  }
  const [first] = await db
    .insert(firstScans)
    .values({ userId: actorId, domain: domain.domain })
    .onConflictDoNothing()
    .returning();
  return Boolean(first);
}

/**
 * A domain whose ownership was just shown, by its TXT record, by its delegation to a connected
 * zone, or by the same person's standing proof of it in another workspace: verified on that proof,
 * any lapse forgotten. The first time the domain becomes verified it
 * is in the audit log and, once per account and name, gets its first scan, the plan's own (it does
 * not count against the quota): removing the domain and adding it again is no way to more free scans.
 */
export async function markOwnershipProven(
  db: Db,
  queue: ScanQueue,
  request: {
    workspace: { id: string; tier: string };
    /** Who proved it: the audit log names them, and the first scan is theirs. */
    actorId: string;
    domain: DomainRow;
    proof: OwnershipProof;
    now: Date;
    ip?: string;
  },
): Promise<{ domain: DomainRow; newlyVerified: boolean; firstScan: boolean }> {
  const { workspace, actorId, domain: row, proof, now } = request;
  const newlyVerified = row.status !== 'verified';
  const shared = typeof proof === 'object' ? proof.shared : null;
  const kind = typeof proof === 'object' ? 'shared' : proof;
  const updated = await inTransaction(db, async (tx) => {
    const [changed] = await tx
      .update(domains)
      .set({
        status: 'verified',
        proof: kind,
        provedBy: shared ? null : actorId,
        proofSourceId: shared?.id ?? null,
        verifiedAt: row.verifiedAt ?? now,
        verificationError: null,
        recordMissingSince: null,
        pausedReason: null,
        ownershipCheckedAt: now,
        ...(newlyVerified || row.pausedReason ? { nextScanAt: nextScanAfter(row, now) } : {}),
      })
      .where(eq(domains.id, row.id))
      .returning();
    if (!changed) throw new ServiceError('not-found', 'NOT_FOUND', 'Domain not found');
    if (newlyVerified)
      await audit(tx, {
        userId: actorId,
        workspaceId: workspace.id,
        action: 'domain.verified',
        detail: {
          domainId: row.id,
          domain: row.domain,
          proof: kind,
          ...(shared ? { sharedFrom: { workspaceId: shared.workspaceId, domainId: shared.id } } : {}),
        },
        ip: request.ip,
      });
    return changed;
  });
  if (!newlyVerified) return { domain: updated, newlyVerified, firstScan: false };
  const due = await firstScanDue(db, actorId, updated, proof);
  if (!due || updated.overPlanLimit) return { domain: updated, newlyVerified, firstScan: false };
  const { scanFrequency: _, ...config } = updated.scanConfig;
  await requestScan(db, queue, { workspace, domain: updated, trigger: 'scheduled', config, now });
  return { domain: updated, newlyVerified, firstScan: true };
}
