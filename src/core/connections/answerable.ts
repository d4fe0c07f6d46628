import { inArray, sql } from 'drizzle-orm';
import { type Db, inTransaction, queryRows } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { type DisabledView, memberName } from '../../model/connections.ts';
import { can, type WorkspaceRole } from '../../model/workspaces.ts';
import type { WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { CONNECTION_KINDS, type ConnectionKind, KINDS } from './kinds.ts';

/** One connection a member's leaving or demotion just disabled, as the owners' mail names it. */
export interface DisabledConnection {
  kind: ConnectionKind;
  id: string;
  workspaceId: string;
  name: string;
  reason: string;
}

/** The card's "disabled, and why", from a row of any kind. */
export function disabledView(row: { disabledAt: Date | null; disabledReason: string | null }): DisabledView {
  return row.disabledAt ? { at: row.disabledAt.toISOString(), reason: row.disabledReason ?? '' } : null;
}

/**
 * Who answers for each of some connections, named as their cards show it: a lookup by the member's
 * id that answers null for nobody (none recorded, or their account is gone).
 */
export async function answererNames(
  db: Db,
  ids: (string | null)[],
): Promise<(id: string | null) => string | null> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const rows = wanted.length
    ? await db
        .select({ id: users.id, email: users.email, displayName: users.displayName })
        .from(users)
        .where(inArray(users.id, wanted))
    : [];
  const names = new Map(rows.map((row) => [row.id, memberName(row)]));
  return (id) => (id === null ? null : (names.get(id) ?? null));
}

/** Refuses to use a disabled connection (409) for what only a live one does: a read, a test. */
export function assertLive(kind: ConnectionKind, row: { disabledAt: Date | null }): void {
  const k = KINDS[kind];
  if (row.disabledAt) throw new ServiceError('conflict', k.disabledCode, k.disabledMessage);
}

/** The kinds a member with `role` no longer answers for: those whose management the role lacks. */
export const kindsBeyond = (role: WorkspaceRole): ConnectionKind[] =>
  CONNECTION_KINDS.filter((kind) => !can(role, KINDS[kind].permission));

/**
 * Disables the live connections of `kinds` that `userId` answers for, in one workspace or
 * (`workspaceId` undefined: the account goes) in all: they chose where the workspace's findings go
 * or which outside account it reads, and once they leave it, or no longer manage that kind, nobody
 * vouches for it any more. Disabled, not deleted: an admin sees why and re-enables what the
 * workspace still trusts. Answers those it disabled, for the owners to hear of
 * (disabled-mail.ts). Run inside the change's transaction, so both stand or fall together.
 */
export async function disableAnsweredBy(
  db: Db,
  scope: { workspaceId: string | undefined; userId: string; reason: string; now: Date },
  kinds: readonly ConnectionKind[] = CONNECTION_KINDS,
): Promise<DisabledConnection[]> {
  const { workspaceId, userId, reason, now } = scope;
  const disabled: DisabledConnection[] = [];
  for (const kind of kinds) {
    const k = KINDS[kind];
    const rows = await queryRows<{ id: string; workspace_id: string; name: string }>(
      db,
      sql`update ${k.table} set disabled_at = ${now.toISOString()}::timestamptz, disabled_reason = ${reason}
        where ${k.answeredBy} = ${userId} and ${k.disabledAt} is null
        ${workspaceId === undefined ? sql`` : sql`and ${k.workspaceId} = ${workspaceId}`}
        returning ${k.id} as id, ${k.workspaceId} as workspace_id, ${k.name} as name`,
    );
    for (const row of rows)
      disabled.push({ kind, id: row.id, workspaceId: row.workspace_id, name: row.name, reason });
  }
  return disabled;
}

/**
 * Re-enables one of the workspace's connections (found first by its own service, so a missing one
 * is that service's 404); whoever does it answers for it from now on, as its maker did (their own
 * leaving disables it again). One that is live changes nothing and is not audited.
 */
export async function enableConnection(
  db: Db,
  ctx: WorkspaceContext,
  kind: ConnectionKind,
  id: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const k = KINDS[kind];
  await inTransaction(db, async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`update ${k.table} set disabled_at = null, disabled_reason = null,
          ${sql.identifier(k.answeredBy.name)} = ${ctx.actor.userId}
        where ${k.id} = ${id} and ${k.workspaceId} = ${ctx.workspace.id} and ${k.disabledAt} is not null
        returning ${k.id} as id`,
    );
    if (rows.length) await auditIn(tx, ctx, `${kind}.enabled`, detail);
  });
}
