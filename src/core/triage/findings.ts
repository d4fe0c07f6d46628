import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, inTransaction } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import { parseUntil, UNTIL_RECORD_CHANGES, untilProblem } from '../../model/acceptance.ts';
import type { FindingRecord } from '../../model/contract.ts';
import type { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { findingRecord } from '../domains/views.ts';
import { ServiceError } from '../errors.ts';
import { findingKey } from '../findings/key.ts';
import { queueTicketSync } from '../integrations/tickets.ts';
import { isUuid } from '../validation.ts';

/** The workspace's findings with their history, most recently seen first. */
export async function listFindings(
  db: Db,
  ctx: WorkspaceContext,
  query: z.infer<typeof findingQuerySchema>,
): Promise<{ findings: FindingRecord[] }> {
  authorize(ctx, 'read');
  const where = and(
    eq(findings.workspaceId, ctx.workspace.id),
    query.domain ? eq(findings.domain, query.domain.trim().toLowerCase()) : undefined,
    query.state === 'open' ? and(isNull(findings.resolvedAt), isNull(findings.acceptedAt)) : undefined,
    query.state === 'accepted' ? and(isNull(findings.resolvedAt), isNotNull(findings.acceptedAt)) : undefined,
    query.state === 'resolved' ? isNotNull(findings.resolvedAt) : undefined,
  );
  if (query.key) {
    // The key is derived from the workspace and the finding's latest report, not stored: every
    // finding of the workspace is looked at (not only the newest thousand), by its report alone.
    const reports = await db.select({ id: findings.id, latest: findings.latest }).from(findings).where(where);
    const hit = reports.find((r) => findingKey(ctx.workspace.id, r.latest) === query.key);
    if (!hit) return { findings: [] };
    const rows = await db.select().from(findings).where(eq(findings.id, hit.id));
    return { findings: rows.map(findingRecord) };
  }
  const rows = await db.select().from(findings).where(where).orderBy(desc(findings.lastSeenAt)).limit(1000);
  return { findings: rows.map(findingRecord) };
}

/** What accepting, or taking an acceptance back, writes on the finding. */
const NOT_ACCEPTED = {
  acceptedAt: null,
  acceptedNote: null,
  acceptedBy: null,
  acceptedByUserId: null,
  acceptedUntil: null,
  acceptedUntilRecordChanges: false,
} as const;

/**
 * Accepts one of the workspace's findings as a risk, with a note and an expiry (a date-time at least
 * a minute and at most a year ahead, or until the record changes), or takes the acceptance back.
 */
export async function acceptRisk(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  body: z.infer<typeof acceptRiskSchema>,
  now: Date,
): Promise<FindingRecord> {
  authorize(ctx, 'findings.accept');
  if (!isUuid(id)) throw new ServiceError('not-found', 'NOT_FOUND', 'Finding not found');
  let values: Partial<typeof findings.$inferInsert> = { ...NOT_ACCEPTED };
  if (body.accepted) {
    const until = parseUntil(body.until);
    if (until === null) throw new ServiceError('invalid', 'VALIDATION_ERROR', 'The expiry is not a date');
    const problem = until === UNTIL_RECORD_CHANGES ? null : untilProblem(until, now);
    if (problem)
      throw new ServiceError('invalid', 'VALIDATION_ERROR', problem, [{ path: 'until', message: problem }]);
    values = {
      acceptedAt: now,
      acceptedNote: body.note,
      acceptedBy: ctx.actor.displayName ?? ctx.actor.email ?? 'a member',
      acceptedByUserId: ctx.actor.userId,
      acceptedUntil: until === UNTIL_RECORD_CHANGES ? null : until,
      acceptedUntilRecordChanges: until === UNTIL_RECORD_CHANGES,
      lapsedAcceptance: null,
      lapsedAlertedAt: null,
    };
  }
  const finding = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(findings)
      .set(values)
      .where(and(eq(findings.id, id), eq(findings.workspaceId, ctx.workspace.id)))
      .returning();
    if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Finding not found');
    const finding = findingRecord(row);
    await auditIn(tx, ctx, body.accepted ? 'finding.accepted' : 'finding.reopened', {
      findingId: finding.id,
      domain: finding.domain,
      subdomain: finding.finding.subdomain,
      note: body.accepted ? body.note : undefined,
      until: finding.accepted?.until,
    });
    return finding;
  });
  // Its tickets follow: closed with who accepted it, why and until when; filed again when taken back.
  await queueTicketSync(db, ctx.workspace.id, [finding.id], { now });
  return finding;
}
