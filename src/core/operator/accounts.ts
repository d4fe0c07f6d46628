import { and, count, eq, sql } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { domains, users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { PLANS, type PlanId } from '../../model/plans.ts';
import { audit } from '../audit.ts';
import { applyDomainLimit } from '../domains/plan-limit.ts';
import { ServiceError } from '../errors.ts';
import { currentServerPlan, effectiveTier } from '../server-plan.ts';

export interface UserLine {
  email: string | null;
  tier: string;
  domains: number;
  uid: string;
}

export async function listUsers(db: Db): Promise<UserLine[]> {
  const rows = await db
    .select({ email: users.email, tier: workspaces.tier, uid: users.id, domains: count(domains.id) })
    .from(users)
    .innerJoin(workspaces, eq(workspaces.id, users.id))
    .leftJoin(domains, eq(domains.workspaceId, users.id))
    .groupBy(users.id, workspaces.tier)
    .orderBy(users.email);
  return rows.map((r) => ({ ...r, tier: effectiveTier(r.tier), domains: Number(r.domains) }));
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
  const serverPlan = currentServerPlan();
  if (serverPlan) {
    // The plan set here would not be the one the workspace has while DEFAULT_PLAN gives every one.
    throw new ServiceError(
      'conflict',
      'SERVER_PLAN',
      `this server sells no plans: every workspace has ${serverPlan} (DEFAULT_PLAN); set DEFAULT_PLAN=free to give plans one by one`,
    );
  }
  if (workspace !== undefined) return setWorkspacePlan(db, email, plan, workspace);
  const accounts = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  for (const account of accounts) await changePlan(db, account.id, account.id, plan);
  return accounts.length;
}

/** Sets a workspace's plan; `userId` is the owner the audit log names. */
async function changePlan(db: Db, userId: string, workspaceId: string, plan: PlanId): Promise<void> {
  const [before] = await db
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (!before || before.tier === plan) return;
  await inTransaction(db, async (tx) => {
    await tx.update(workspaces).set({ tier: plan }).where(eq(workspaces.id, workspaceId));
    await applyDomainLimit(tx, workspaceId);
    await audit(tx, {
      userId,
      workspaceId,
      action: 'plan.changed',
      detail: { from: before.tier, to: plan, source: 'operator' },
    });
  });
}

async function setWorkspacePlan(db: Db, email: string, plan: PlanId, workspaceId: string): Promise<number> {
  const [owner] = await db
    .select({ userId: users.id })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.role, 'owner'),
        sql`lower(${users.email}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .limit(1);
  if (!owner) return 0;
  await changePlan(db, owner.userId, workspaceId, plan);
  return 1;
}
