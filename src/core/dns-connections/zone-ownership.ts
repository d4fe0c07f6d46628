import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dnsConnectionZones, domains } from '../../db/schema.ts';
import { checkOwnership } from '../domains/ownership.ts';
import { markOwnershipProven } from '../domains/proven.ts';
import type { ScanQueue } from '../domains/scan-requests.ts';
import type { DomainRow } from '../domains/views.ts';
import type { ZoneProof } from './zone-proof.ts';

type ZoneLink = typeof dnsConnectionZones.$inferSelect;

export interface ZoneOwnership {
  domain: DomainRow;
  /** The proof made the domain verified just now. */
  newlyVerified: boolean;
  /** ... and its first scan was started. */
  firstScan: boolean;
}

/**
 * What a delegation check of a linked zone does to its domain (see zone-proof.ts for the rule):
 * - proven: the domain is verified on the zone, and gets its first scan if it is new;
 * - not proven, and the domain stood on the zone: its TXT record may take over (and resumes a paused
 *   domain, as verifying again would); without one, a
 *   domain the delegation never proved (verified by a zone listing, before the rule) is pending
 *   again at once, and one whose delegation moved away lapses as a missing TXT record does (the
 *   scheduler pauses it after the grace period);
 * - not proven otherwise: the domain keeps its status, and a domain not yet verified says why;
 * - a check that could not be made (DNS or the provider did not answer) changes nothing.
 */
export async function applyZoneProof(
  db: Db,
  queue: ScanQueue,
  request: {
    workspace: { id: string; tier: string };
    actorId: string;
    link: ZoneLink;
    domain: DomainRow;
    proof: ZoneProof;
    now: Date;
    resolvers?: string[];
    ip?: string;
  },
): Promise<ZoneOwnership> {
  const { link, domain, proof, now } = request;
  const unchanged = { domain, newlyVerified: false, firstScan: false };
  if (proof.proven) {
    await db.update(dnsConnectionZones).set({ delegatedAt: now }).where(eq(dnsConnectionZones.id, link.id));
    return markOwnershipProven(db, queue, { ...request, proof: 'zone' });
  }
  if (!proof.definite) return unchanged;
  if (domain.status !== 'verified') {
    const [updated] = await db
      .update(domains)
      .set({ verificationError: proof.reason })
      .where(eq(domains.id, domain.id))
      .returning();
    return { ...unchanged, domain: updated ?? domain };
  }
  if (domain.proof !== 'zone') return unchanged;
  const txt = await checkOwnership(domain.domain, domain.verificationToken, { resolvers: request.resolvers });
  if (!txt.verified && !txt.definite) return unchanged;
  if (txt.verified) {
    const [updated] = await db
      .update(domains)
      .set({
        proof: 'txt',
        ownershipCheckedAt: now,
        recordMissingSince: null,
        pausedReason: null,
        verificationError: null,
      })
      .where(eq(domains.id, domain.id))
      .returning();
    return { ...unchanged, domain: updated ?? domain };
  }
  const lapse =
    link.delegatedAt === null
      ? { status: 'pending', proof: null, verificationError: proof.reason }
      : { recordMissingSince: domain.recordMissingSince ?? now, verificationError: proof.reason };
  const [updated] = await db.update(domains).set(lapse).where(eq(domains.id, domain.id)).returning();
  return { ...unchanged, domain: updated ?? domain };
}
