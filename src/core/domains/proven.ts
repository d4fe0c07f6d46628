import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, firstScans } from '../../db/schema.ts';
import { audit } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { requestScan, type ScanQueue } from './scan-requests.ts';
import { nextScanAfter } from './store.ts';
import type { DomainRow } from './views.ts';

/** What a verified domain's ownership stands on (see `domains.proof`). */
export type OwnershipProof = 'txt' | 'zone';

/**
 * A domain whose ownership was just shown, by its TXT record or by its delegation to a connected
 * zone: verified on that proof, any lapse forgotten. The first time the domain becomes verified it
 * is in the audit log and, once per account and name, gets its first scan, the plan's own (it does
 * not count against the quota): removing the domain and adding it again is no way to more free scans.
 */
export async function markOwnershipProven(
  db: Db,
  queue: ScanQueue,
  request: {
    owner: { id: string; tier: string };
    /** Who proved it: the audit log names them, and the first scan is theirs. */
    actorId: string;
    domain: DomainRow;
    proof: OwnershipProof;
    now: Date;
    ip?: string;
  },
): Promise<{ domain: DomainRow; newlyVerified: boolean; firstScan: boolean }> {
  const { owner, actorId, domain: row, proof, now } = request;
  const newlyVerified = row.status !== 'verified';
  const [updated] = await db
    .update(domains)
    .set({
      status: 'verified',
      proof,
      verifiedAt: row.verifiedAt ?? now,
      verificationError: null,
      recordMissingSince: null,
      pausedReason: null,
      ownershipCheckedAt: now,
      ...(newlyVerified || row.pausedReason ? { nextScanAt: nextScanAfter(row.scanConfig, now) } : {}),
    })
    .where(eq(domains.id, row.id))
    .returning();
  if (!updated) throw new ServiceError('not-found', 'NOT_FOUND', 'Domain not found');
  if (!newlyVerified) return { domain: updated, newlyVerified, firstScan: false };
  await audit(db, {
    userId: actorId,
    workspaceId: owner.id,
    action: 'domain.verified',
    detail: { domainId: row.id, domain: row.domain, proof },
    ip: request.ip,
  });
  const [first] = await db
    .insert(firstScans)
    .values({ userId: actorId, domain: updated.domain })
    .onConflictDoNothing()
    .returning();
  if (!first || updated.overPlanLimit) return { domain: updated, newlyVerified, firstScan: false };
  const { scanFrequency: _, ...config } = updated.scanConfig;
  await requestScan(db, queue, { owner, domain: updated, trigger: 'scheduled', config, now });
  return { domain: updated, newlyVerified, firstScan: true };
}
