import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { tierSql } from '../server-plan.ts';

/**
 * The Free plan is one allowance per account, not per workspace: the Free workspaces an account
 * owns (its personal one when on Free, and its team workspaces on Free) count their domains and
 * requested scans together against one Free plan's limits. Otherwise every team workspace made
 * would be one more Free plan. A paid workspace keeps its plan's limits to itself.
 *
 * A team workspace's allowance is its first owner's (the earliest to join as owner: who made it,
 * unless they handed it over and left), so each Free workspace counts against exactly one account.
 */

/** The account whose Free allowance the workspace `workspaceId` names counts against, as SQL. */
function firstOwnerSql(workspaceId: SQLWrapper): SQL {
  return sql`(select o.user_id from workspace_members o
    where o.workspace_id = ${workspaceId} and o.role = 'owner'
    order by o.joined_at, o.user_id limit 1)`;
}

/**
 * The ids of the workspaces whose rows a plan limit's check on `workspaceId` locks, personal
 * workspace first so that every path takes them in one order: the workspace, and for a team
 * workspace on Free its first owner's personal workspace (whose id is the owner's), which every
 * workspace sharing that Free allowance locks.
 */
export function allowanceLockSql(workspaceId: string): SQL {
  return sql`select w.id from workspaces w
    where w.id = ${workspaceId}
      or w.id = (select case when ${tierSql('t')} = 'free' and not t.personal then ${firstOwnerSql(sql`t.id`)} end
        from workspaces t where t.id = ${workspaceId})
    order by w.personal desc, w.id
    for update of w`;
}

export interface SharedWorkspace {
  id: string;
  name: string;
}

/**
 * The workspaces whose domains and requested scans count against the same plan limits as
 * `workspace`'s, itself included: only itself on a paid plan; on Free, every Free workspace of the
 * account whose allowance it is.
 */
export async function allowanceOf(
  db: Db,
  workspace: { id: string; tier: string },
): Promise<SharedWorkspace[]> {
  if (workspace.tier !== 'free') return [{ id: workspace.id, name: '' }];
  const rows = await queryRows<SharedWorkspace>(
    db,
    sql`select w.id, w.name from workspace_members m
      join workspaces w on w.id = m.workspace_id
      where m.user_id = ${firstOwnerSql(sql`${workspace.id}`)}
        and m.role = 'owner' and ${tierSql('w')} = 'free'
        and ${firstOwnerSql(sql`w.id`)} = m.user_id
      order by w.personal desc, w.created_at, w.id`,
  );
  return rows.some((row) => row.id === workspace.id) ? rows : [...rows, { id: workspace.id, name: '' }];
}

/**
 * Every allowance that the account owning `workspaceId` first holds: its Free workspaces as one,
 * and each of its paid workspaces alone, with the plan of each. What a plan change of one of them
 * may move between the account's allowances.
 */
export async function allowancesOfOwner(
  db: Db,
  workspaceId: string,
): Promise<{ tier: string; workspaceIds: string[] }[]> {
  const rows = await queryRows<{ id: string; tier: string }>(
    db,
    sql`select w.id, ${tierSql('w')} as tier from workspace_members m
      join workspaces w on w.id = m.workspace_id
      where m.user_id = ${firstOwnerSql(sql`${workspaceId}`)}
        and m.role = 'owner'
        and ${firstOwnerSql(sql`w.id`)} = m.user_id`,
  );
  if (!rows.some((row) => row.id === workspaceId)) {
    const [self] = await queryRows<{ id: string; tier: string }>(
      db,
      sql`select w.id, ${tierSql('w')} as tier from workspaces w where w.id = ${workspaceId}`,
    );
    if (self) rows.push(self);
  }
  const free = rows.filter((row) => row.tier === 'free').map((row) => row.id);
  return [
    ...(free.length ? [{ tier: 'free', workspaceIds: free }] : []),
    ...rows.filter((row) => row.tier !== 'free').map((row) => ({ tier: row.tier, workspaceIds: [row.id] })),
  ];
}

/**
 * Team workspaces whose allowance is the account's (on any plan): what the Free plan's number of
 * team workspaces counts. Co-owning a workspace someone else made does not use it up.
 */
export async function teamWorkspacesOwned(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from workspace_members m
      join workspaces w on w.id = m.workspace_id
      where m.user_id = ${userId} and m.role = 'owner' and not w.personal
        and ${firstOwnerSql(sql`w.id`)} = m.user_id`,
  );
  return Number(row?.n ?? 0);
}
