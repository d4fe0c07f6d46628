import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, workspaceMembers } from '../../db/schema.ts';
import type { DomainRow } from './views.ts';

/** Why a shared proof no longer stands, as the domain's card says it. */
export const SHARED_PROOF_LAPSED =
  'The proof this domain stood on (its parent domain here, or the same name in another of your workspaces) no longer stands: publish its TXT record to verify it here.';

/**
 * The proof the same person gave for this name in another workspace they still belong to, if it
 * stands now (verified by its own TXT record or zone, and seen: not missing, not paused). Another
 * person's proof never counts: a domain proven in a shared workspace by a colleague is theirs to
 * vouch for. A shared proof is never the source of another: copies stand on the original.
 */
export async function standingProofFor(
  db: Db,
  request: { name: string; actorId: string; workspaceId: string },
): Promise<DomainRow | undefined> {
  const [found] = await db
    .select({ domain: domains })
    .from(domains)
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, domains.workspaceId),
        eq(workspaceMembers.userId, request.actorId),
      ),
    )
    .where(
      and(
        eq(domains.domain, request.name),
        ne(domains.workspaceId, request.workspaceId),
        eq(domains.provedBy, request.actorId),
        eq(domains.status, 'verified'),
        inArray(domains.proof, ['txt', 'zone']),
        isNull(domains.recordMissingSince),
        isNull(domains.pausedReason),
      ),
    )
    .limit(1);
  return found?.domain;
}

/**
 * The proof this workspace gave for a parent of `name` (its own TXT record or delegation, standing
 * now): whoever holds example.com holds app.example.com, so no record is asked of the subdomain. The
 * nearest parent, should several be proven. A shared proof is never the source of another.
 */
export async function parentProofFor(
  db: Db,
  request: { name: string; workspaceId: string },
): Promise<DomainRow | undefined> {
  const [found] = await db
    .select()
    .from(domains)
    .where(
      and(
        eq(domains.workspaceId, request.workspaceId),
        sql`right(${request.name}, length(${domains.domain}) + 1) = '.' || ${domains.domain}`,
        eq(domains.status, 'verified'),
        inArray(domains.proof, ['txt', 'zone']),
        isNull(domains.recordMissingSince),
        isNull(domains.pausedReason),
      ),
    )
    .orderBy(desc(sql`length(${domains.domain})`))
    .limit(1);
  return found;
}

/**
 * Whether a domain verified on a shared proof still stands on it: its source is still there,
 * verified and not paused. When it does not, the copy lapses with it at once: pending again, with
 * no proof and the reason, until its own TXT record proves it. True for any other domain.
 */
export async function sharedProofStands(db: Db, domain: DomainRow): Promise<boolean> {
  return (await lapseSharedProofs(db, [domain])).size === 0;
}

/**
 * sharedProofStands for many domains in two statements (the scheduling pass's pages): the ids of
 * those whose shared proof lapsed just now, pending again. Domains on a proof of their own stand.
 */
export async function lapseSharedProofs(db: Db, rows: readonly DomainRow[]): Promise<Set<string>> {
  const shared = rows.filter((row) => row.proof === 'shared');
  if (shared.length === 0) return new Set();
  const sourceIds = [...new Set(shared.flatMap((row) => (row.proofSourceId ? [row.proofSourceId] : [])))];
  const standing = new Set(
    sourceIds.length === 0
      ? []
      : (
          await db
            .select({ id: domains.id })
            .from(domains)
            .where(
              and(
                inArray(domains.id, sourceIds),
                eq(domains.status, 'verified'),
                isNull(domains.pausedReason),
              ),
            )
        ).map((source) => source.id),
  );
  const lapsed = shared
    .filter((row) => !row.proofSourceId || !standing.has(row.proofSourceId))
    .map((row) => row.id);
  if (lapsed.length > 0) {
    await db
      .update(domains)
      .set({
        status: 'pending',
        proof: null,
        proofSourceId: null,
        nextScanAt: null,
        verificationError: SHARED_PROOF_LAPSED,
      })
      .where(inArray(domains.id, lapsed));
  }
  return new Set(lapsed);
}
