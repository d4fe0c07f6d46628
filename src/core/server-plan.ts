import { type SQL, sql } from 'drizzle-orm';
import type { PlanId } from '../model/plans.ts';

/**
 * The plan every workspace has on a server that sells none (DEFAULT_PLAN), or null where each
 * workspace has its own: a server that bills, or DEFAULT_PLAN=free. Set once at start-up from the
 * configuration, which every process of one deployment reads alike; the stored plans are left as
 * they are, so a server that starts billing later finds each workspace's own plan again.
 */
let serverPlan: PlanId | null = null;

export function setServerPlan(plan: PlanId | null): void {
  serverPlan = plan;
}

export function currentServerPlan(): PlanId | null {
  return serverPlan;
}

/** The plan a workspace has: the server's, else the one stored on its row. */
export function effectiveTier(stored: string | null | undefined): string {
  return serverPlan ?? stored ?? 'free';
}

/** effectiveTier in SQL, for the workspaces row aliased `alias`. */
export function tierSql(alias: string): SQL {
  return serverPlan ? sql`${serverPlan}::text` : sql.raw(`${alias}.tier`);
}
