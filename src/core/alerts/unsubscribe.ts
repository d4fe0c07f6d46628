import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, workspaceMembers, workspaces } from '../../db/schema.ts';
import { appSecret } from '../mail/secrets.ts';
import { setMemberAlerts } from '../workspaces/member.ts';
import { UNSUBSCRIBE_SECRET, verifyUnsubscribe } from './unsubscribe-link.ts';

type DomainRow = typeof domains.$inferSelect;

/**
 * What a signed unsubscribe link stops: the domain's alerts, when it is the reader's own (their
 * personal workspace's, or a link from before alerts named their member); else, in a team
 * workspace, the alerts of that workspace to that member alone.
 */
export interface UnsubscribeTarget {
  domain: DomainRow;
  member?: { userId: string; workspace: string };
}

/**
 * The target of a link the route has checked the form of; undefined when the signature does not
 * match, the domain is gone, or the member it was mailed to has left the workspace.
 */
export async function unsubscribeTarget(
  db: Db,
  id: string,
  userId: string | undefined,
  signature: string,
): Promise<UnsubscribeTarget | undefined> {
  if (!verifyUnsubscribe(await appSecret(db, UNSUBSCRIBE_SECRET), id, userId, signature)) return undefined;
  const [domain] = await db.select().from(domains).where(eq(domains.id, id));
  if (!domain) return undefined;
  if (userId === undefined || domain.workspaceId === userId) return { domain };
  const [member] = await db
    .select({ workspace: workspaces.name })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.workspaceId, domain.workspaceId), eq(workspaceMembers.userId, userId)));
  return member ? { domain, member: { userId, workspace: member.workspace } } : undefined;
}

/** Turns the alerts off: the domain's, or one member's of a team workspace. Scans and the dashboard go on. */
export async function stopEmailAlerts(db: Db, target: UnsubscribeTarget): Promise<void> {
  if (target.member) await setMemberAlerts(db, target.domain.workspaceId, target.member.userId, false);
  else await db.update(domains).set({ alertsEmail: false }).where(eq(domains.id, target.domain.id));
}
