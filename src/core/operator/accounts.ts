import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { PLANS, type PlanId } from '../../model/plans.ts';
import { audit } from '../audit.ts';
import { applyDomainLimit } from '../domains/plan-limit.ts';

export interface UserLine {
  email: string | null;
  tier: string;
  domains: number;
  uid: string;
}

export async function listUsers(db: Db): Promise<UserLine[]> {
  const rows = await db
    .select({ email: users.email, tier: users.tier, uid: users.id, domains: count(domains.id) })
    .from(users)
    .leftJoin(domains, eq(domains.workspaceId, users.id))
    .groupBy(users.id)
    .orderBy(users.email);
  return rows.map((r) => ({ ...r, domains: Number(r.domains) }));
}

export function isPlanId(plan: string): plan is PlanId {
  return PLANS.some((p) => p.id === plan);
}

/**
 * Sets the plan of every account with this e-mail address (case-insensitive), or with `workspace`,
 * of that team workspace, which an account with this address must own; returns how many changed
 * hands: 0 when no such account (or workspace of theirs) exists.
 */
export async function setPlan(db: Db, email: string, plan: string, workspace?: string): Promise<number> {
  if (!isPlanId(plan)) {
    throw new Error(`unknown plan '${plan}' (one of ${PLANS.map((p) => p.id).join(', ')})`);
  }
  if (workspace !== undefined) return setWorkspacePlan(db, email, plan, workspace);
  const matching = sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;
  const before = await db.select({ id: users.id, tier: users.tier }).from(users).where(matching);
  await db.update(users).set({ tier: plan, updatedAt: sql`now()` }).where(matching);
  for (const user of before.filter((u) => u.tier !== plan)) {
    await applyDomainLimit(db, user.id);
    await audit(db, {
      userId: user.id,
      action: 'plan.changed',
      detail: { from: user.tier, to: plan, source: 'operator' },
    });
  }
  return before.length;
}

async function setWorkspacePlan(db: Db, email: string, plan: PlanId, workspaceId: string): Promise<number> {
  const [owner] = await db
    .select({ userId: users.id, personal: workspaces.personal, tier: workspaces.tier })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.role, 'owner'),
        sql`lower(${users.email}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .limit(1);
  if (!owner) return 0;
  // A personal workspace is on its account's plan.
  if (owner.personal) return setPlan(db, email, plan);
  await db.update(workspaces).set({ tier: plan }).where(eq(workspaces.id, workspaceId));
  if (owner.tier !== plan) {
    await applyDomainLimit(db, workspaceId);
    await audit(db, {
      userId: owner.userId,
      workspaceId,
      action: 'plan.changed',
      detail: { from: owner.tier, to: plan, source: 'operator' },
    });
  }
  return 1;
}
