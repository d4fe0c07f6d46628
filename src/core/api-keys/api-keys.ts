import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { apiKeys, workspaceMembers, workspaces } from '../../db/schema.ts';
import { API_ACCESS_MESSAGES, API_KEY_ROLE } from '../../model/api-access.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { lesserRole, type WorkspaceRole } from '../../model/workspaces.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { API_KEY_LIMIT } from '../limits.ts';
import { isUuid } from '../validation.ts';
import { underWorkspaceLock, workspaceTier } from '../workspaces/workspaces.ts';
import { hashApiKey, looksLikeApiKey, newApiKey } from './key.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The workspace's keys for the public API, revoked ones included, oldest first. */
export function listApiKeys(db: Db, ctx: WorkspaceContext): Promise<ApiKeyRow[]> {
  authorize(ctx, 'api-keys.manage');
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, ctx.workspace.id))
    .orderBy(asc(apiKeys.createdAt));
}

/**
 * A new key, on a plan with API access and within the number of active keys. The secret is
 * returned this once: only its hash is kept.
 */
export async function createApiKey(
  db: Db,
  ctx: WorkspaceContext,
  name: string,
): Promise<{ row: ApiKeyRow; secret: string }> {
  authorize(ctx, 'api-keys.manage');
  // Calls made with the key are its maker's in the audit log.
  const createdBy = ctx.actor.userId;
  const workspace = ctx.workspace;
  const plan = getPlanForTier(workspace.tier);
  if (plan.limits.apiCallsPerHour === 0) {
    throw new ServiceError('forbidden', 'PLAN_REQUIRED', API_ACCESS_MESSAGES.planRequired(plan.name));
  }
  return underWorkspaceLock(db, workspace.id, async (tx) => {
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspace.id), isNull(apiKeys.revokedAt)));
    if (Number(active?.n ?? 0) >= API_KEY_LIMIT) {
      throw new ServiceError('conflict', 'API_KEY_LIMIT', API_ACCESS_MESSAGES.keyLimit(API_KEY_LIMIT));
    }
    const { secret, prefix, hash } = newApiKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({ workspaceId: workspace.id, createdBy, name, prefix, hash })
      .returning();
    if (!row) throw new Error('insert returned no API key');
    await auditIn(tx, ctx, 'api_key.created', { id: row.id, name, prefix: row.prefix });
    return { row, secret };
  });
}

/**
 * Revokes one of the workspace's keys. The row stays, so the list still says when the key stopped
 * working; revoking twice keeps the first time (and its one audit entry).
 */
export async function revokeApiKey(db: Db, ctx: WorkspaceContext, id: string, now: Date): Promise<ApiKeyRow> {
  authorize(ctx, 'api-keys.manage');
  const own = and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, ctx.workspace.id));
  const [row] = isUuid(id) ? await db.select().from(apiKeys).where(own) : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'API key not found');
  return inTransaction(db, async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(own, isNull(apiKeys.revokedAt)))
      .returning();
    if (!revoked) return row;
    await auditIn(tx, ctx, 'api_key.revoked', { id: row.id, name: row.name, prefix: row.prefix });
    return revoked;
  });
}

/**
 * Revokes the live keys someone made, in one workspace or in all: whoever leaves a workspace, or
 * DangleWatch, takes the secrets they saw with them, and those must stop working as they do.
 */
export async function revokeKeysMadeBy(
  db: Db,
  userId: string,
  now: Date,
  workspaceId?: string,
): Promise<number> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiKeys.createdBy, userId),
        isNull(apiKeys.revokedAt),
        workspaceId === undefined ? undefined : eq(apiKeys.workspaceId, workspaceId),
      ),
    )
    .returning({ id: apiKeys.id });
  return revoked.length;
}

/**
 * The key a secret is, with the workspace it acts on (its id and plan) and the role it acts with:
 * the lesser of its own (API_KEY_ROLE) and its maker's role in the workspace as it is now, read in
 * the same query on every call, so a role change holds for the maker's keys at their next call.
 * `role` is undefined when the maker is no member any more. Undefined for a secret that is no key
 * of ours.
 */
export async function findApiKey(db: Db, secret: string) {
  if (!looksLikeApiKey(secret)) return undefined;
  const [found] = await db
    .select({
      key: apiKeys,
      workspace: { id: workspaces.id, name: workspaces.name, personal: workspaces.personal },
      makerRole: workspaceMembers.role,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, apiKeys.workspaceId),
        eq(workspaceMembers.userId, apiKeys.createdBy),
      ),
    )
    .where(eq(apiKeys.hash, hashApiKey(secret)));
  if (!found) return undefined;
  return {
    key: found.key,
    workspace: { ...found.workspace, tier: await workspaceTier(db, found.workspace) },
    role: found.makerRole ? lesserRole(API_KEY_ROLE, found.makerRole as WorkspaceRole) : undefined,
  };
}

export async function markApiKeyUsed(db: Db, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}
