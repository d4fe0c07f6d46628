import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, inTransaction } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { FindingRecord } from '../../model/contract.ts';
import type { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { findingRecord } from '../domains/views.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';

/** The workspace's findings with their history, most recently seen first. */
export async function listFindings(
  db: Db,
  ctx: WorkspaceContext,
  query: z.infer<typeof findingQuerySchema>,
): Promise<{ findings: FindingRecord[] }> {
  authorize(ctx, 'read');
  const rows = await db
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, ctx.workspace.id),
        query.domain ? eq(findings.domain, query.domain.trim().toLowerCase()) : undefined,
        query.state === 'open' ? and(isNull(findings.resolvedAt), isNull(findings.acceptedAt)) : undefined,
        query.state === 'accepted'
          ? and(isNull(findings.resolvedAt), isNotNull(findings.acceptedAt))
          : undefined,
        query.state === 'resolved' ? isNotNull(findings.resolvedAt) : undefined,
      ),
    )
    .orderBy(desc(findings.lastSeenAt))
    .limit(1000);
  return { findings: rows.map(findingRecord) };
}

/** Accepts one of the workspace's findings as a risk, with a note, or takes the acceptance back. */
export async function acceptRisk(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  body: z.infer<typeof acceptRiskSchema>,
  now: Date,
): Promise<FindingRecord> {
  authorize(ctx, 'findings.accept');
  if (!isUuid(id)) throw new ServiceError('not-found', 'NOT_FOUND', 'Finding not found');
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(findings)
      .set(
        body.accepted
          ? { acceptedAt: now, acceptedNote: body.note ?? '' }
          : { acceptedAt: null, acceptedNote: null },
      )
      .where(and(eq(findings.id, id), eq(findings.workspaceId, ctx.workspace.id)))
      .returning();
    if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Finding not found');
    const finding = findingRecord(row);
    await auditIn(tx, ctx, body.accepted ? 'finding.accepted' : 'finding.reopened', {
      findingId: finding.id,
      domain: finding.domain,
      subdomain: finding.finding.subdomain,
      note: body.note,
    });
    return finding;
  });
}
