import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import {
  ACTIVITY_PAGE_SIZE,
  type ActivityPerson,
  type ActivityResponse,
  type AuditAction,
  activityCursor,
} from '../../model/activity.ts';
import { authorize, type WorkspaceContext } from '../access.ts';

const actors = alias(users, 'actor');
const members = alias(users, 'member');
/** The time as the page shows it (milliseconds), so that a cursor made from it compares exactly. */
const shown = sql`date_trunc('milliseconds', ${auditLog.createdAt})`;

function person(row: {
  userId: string | null;
  email: string | null;
  displayName: string | null;
}): ActivityPerson | null {
  return row.userId ? { userId: row.userId, email: row.email, displayName: row.displayName } : null;
}

/**
 * A workspace's activity, newest first, a page at a time (`before` the last entry's time): who did
 * what, with the member a role change or removal was about. The IP addresses the log keeps are
 * left out: they are the actor's, not the workspace's.
 */
export async function listActivity(
  db: Db,
  ctx: WorkspaceContext,
  page: { before?: { at: string; id: string }; limit?: number },
): Promise<ActivityResponse> {
  authorize(ctx, 'read');
  const workspaceId = ctx.workspace.id;
  const limit = page.limit ?? ACTIVITY_PAGE_SIZE;
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
      actorId: actors.id,
      actorEmail: actors.email,
      actorName: actors.displayName,
      memberId: members.id,
      memberEmail: members.email,
      memberName: members.displayName,
    })
    .from(auditLog)
    .leftJoin(actors, eq(actors.id, auditLog.userId))
    .leftJoin(members, eq(members.id, sql`${auditLog.detail}->>'member'`))
    .where(
      and(
        eq(auditLog.workspaceId, workspaceId),
        page.before
          ? sql`(${shown}, ${auditLog.id}) < (${page.before.at}::timestamptz, ${page.before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${shown} desc`, sql`${auditLog.id} desc`)
    .limit(limit + 1);
  const entries = rows.slice(0, limit).map((row) => ({
    id: row.id,
    action: row.action as AuditAction,
    actor: person({ userId: row.actorId, email: row.actorEmail, displayName: row.actorName }),
    member: person({ userId: row.memberId, email: row.memberEmail, displayName: row.memberName }),
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  }));
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? activityCursor(last) : null };
}
