import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  alertMails,
  apiKeys,
  auditLog,
  cloudAccounts,
  cloudInventory,
  dnsConnections,
  domains,
  findings,
  firstScans,
  integrations,
  mailingListSignups,
  users,
  webhookDeliveries,
  webhooks,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import type { Actor } from '../access.ts';
import { auditRead } from '../audit.ts';
import { findingKey } from '../findings/key.ts';
import type { JsonMember } from '../json-stream.ts';
import { workspaceScans } from '../scans/scans.ts';

/** Names the file: danglewatch-export-YYYY-MM-DD.json (named with the date). */
export function exportFileName(now: Date): string {
  return `danglewatch-export-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * Everything we hold about one user, table by table, as the members of one JSON object; the scans
 * are read a page at a time while it is written. Credentials are left out: webhook signing secrets,
 * API-key hashes and DNS providers' sealed credentials would let whoever reads the file act for the
 * user, and say nothing about them the rest does not.
 */
export async function exportAccount(db: Db, actor: Actor, now: Date): Promise<JsonMember[]> {
  const userId = actor.userId;
  await auditRead(db, { userId, action: 'data.exported', ip: actor.ip });
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`no user ${userId}`);
  // The account's plan and subscription are its personal workspace's (whose id is its uid).
  const [personal] = await db.select().from(workspaces).where(eq(workspaces.id, userId));
  if (!personal) throw new Error(`no personal workspace of ${userId}`);
  // The personal workspace (its id is the account's uid) and the team workspaces the account owns
  // or administers: what it answers for.
  const managed = await db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaces.personal, false),
        inArray(workspaceMembers.role, ['owner', 'admin']),
      ),
    );
  const exported = [userId, ...managed.map((m) => m.id)];
  const own = <T extends { workspaceId: unknown }>(table: T) => inArray(table.workspaceId as never, exported);
  const hooks = await db.select().from(webhooks).where(own(webhooks)).orderBy(asc(webhooks.createdAt));
  const hookIds = hooks.map((h) => h.id);
  const clouds = await db
    .select()
    .from(cloudAccounts)
    .where(own(cloudAccounts))
    .orderBy(asc(cloudAccounts.createdAt));
  const members: Record<string, unknown> = {
    format: 'danglewatch-export/1',
    exportedAt: now.toISOString(),
    user: {
      uid: user.id,
      email: user.email,
      displayName: user.displayName,
      photoURL: user.photoUrl,
      provider: user.provider,
      tier: personal.tier,
      domain: user.domain,
      settings: user.settings,
      subscription: {
        status: personal.subscriptionStatus,
        currentPeriodEnd: personal.currentPeriodEnd,
        cancelAtPeriodEnd: personal.cancelAtPeriodEnd,
        stripeCustomerId: personal.stripeCustomerId,
        stripeSubscriptionId: personal.stripeSubscriptionId,
      },
      createdAt: user.createdAt,
      lastLoginAt: user.lastLoginAt,
      updatedAt: user.updatedAt,
    },
    workspaces: await db
      .select({
        id: workspaces.id,
        name: workspaces.name,
        personal: workspaces.personal,
        plan: workspaces.tier,
        role: workspaceMembers.role,
        joinedAt: workspaceMembers.joinedAt,
      })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(asc(workspaceMembers.joinedAt)),
    domains: await db.select().from(domains).where(own(domains)).orderBy(asc(domains.createdAt)),
    scans: async function* () {
      for (const id of exported) yield* workspaceScans(db, id, 'oldest');
    },
    // Each finding under its key (`dw:…`), the one trackers, SARIF and CSV carry.
    findings: (await db.select().from(findings).where(own(findings)).orderBy(asc(findings.firstSeenAt))).map(
      (row) => ({ ...row, key: findingKey(row.workspaceId, row.latest) }),
    ),
    firstScans: await db
      .select()
      .from(firstScans)
      .where(eq(firstScans.userId, userId))
      .orderBy(asc(firstScans.createdAt)),
    // The change alerts mailed to this account, of every workspace it belongs to.
    alertMails: await db
      .select({ scanId: alertMails.scanId, sentAt: alertMails.sentAt })
      .from(alertMails)
      .where(eq(alertMails.userId, userId))
      .orderBy(asc(alertMails.sentAt)),
    webhooks: hooks.map(({ secret: _secret, ...hook }) => hook),
    dnsConnections: (
      await db.select().from(dnsConnections).where(own(dnsConnections)).orderBy(asc(dnsConnections.createdAt))
    ).map(({ credentialSealed: _sealed, ...connection }) => connection),
    // Trackers and pagers: never their sealed credentials.
    integrations: (
      await db.select().from(integrations).where(own(integrations)).orderBy(asc(integrations.createdAt))
    ).map(({ credentialSealed: _sealed, ...integration }) => integration),
    cloudAccounts: clouds.map(({ credentialSealed: _sealed, ...account }) => account),
    cloudInventory: clouds.length
      ? await db
          .select()
          .from(cloudInventory)
          .where(
            inArray(
              cloudInventory.cloudAccountId,
              clouds.map((c) => c.id),
            ),
          )
          .orderBy(asc(cloudInventory.firstSeenAt))
      : [],
    webhookDeliveries: hookIds.length
      ? await db
          .select()
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.webhookId, hookIds))
          .orderBy(asc(webhookDeliveries.createdAt))
      : [],
    apiKeys: (await db.select().from(apiKeys).where(own(apiKeys)).orderBy(asc(apiKeys.createdAt))).map(
      ({ hash: _hash, ...key }) => key,
    ),
    auditLogs: (
      await db.select().from(auditLog).where(eq(auditLog.userId, userId)).orderBy(asc(auditLog.createdAt))
    ).map(({ createdAt, ...entry }) => ({ ...entry, timestamp: createdAt })),
    mailingList: user.email
      ? await db
          .select()
          .from(mailingListSignups)
          .where(sql`lower(${mailingListSignups.email}) = ${user.email.toLowerCase()}`)
      : [],
  };
  return Object.entries(members);
}
