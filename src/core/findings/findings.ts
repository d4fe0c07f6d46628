import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import type { FindingRecord } from '../../model/contract.ts';
import type { acceptRiskSchema, findingQuerySchema } from '../../model/schemas.ts';
import { findingRecord } from '../domains/views.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';

/** The user's findings with their history, most recently seen first. */
export async function listFindings(
  db: Db,
  userId: string,
  query: z.infer<typeof findingQuerySchema>,
): Promise<{ findings: FindingRecord[] }> {
  const rows = await db
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, userId),
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

/** Accepts one of the user's findings as a risk, with a note, or takes the acceptance back. */
export async function acceptRisk(
  db: Db,
  userId: string,
  id: string,
  body: z.infer<typeof acceptRiskSchema>,
  now: Date,
): Promise<FindingRecord> {
  const [row] = isUuid(id)
    ? await db
        .update(findings)
        .set(
          body.accepted
            ? { acceptedAt: now, acceptedNote: body.note ?? '' }
            : { acceptedAt: null, acceptedNote: null },
        )
        .where(and(eq(findings.id, id), eq(findings.workspaceId, userId)))
        .returning()
    : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Finding not found');
  return findingRecord(row);
}
