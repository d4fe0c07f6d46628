import type { Readable } from 'node:stream';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { domains, findings, scans } from '../../db/schema.ts';
import { TREND_DAYS } from '../../model/constants.ts';
import {
  type AlertSettings,
  DEFAULT_SCAN_CONFIG,
  type DomainView,
  type ScanConfig,
  type TrendPoint,
} from '../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../model/domain-input.ts';
import { openFindingsAt } from '../../model/open-findings.ts';
import { parseZoneFile, ZoneFileError } from '../../scanner/zone/zone-file.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { ServiceError } from '../errors.ts';
import { queueTicketSync } from '../integrations/tickets.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';
import { assertFreeTierDomain } from './free-tier.ts';
import { type InventoryUpdate, replaceInventory, ZONE_FILE_SOURCE } from './inventory.ts';
import { checkOwnership } from './ownership.ts';
import { applyDomainLimit } from './plan-limit.ts';
import { markOwnershipProven } from './proven.ts';
import { quotaView } from './quota.ts';
import { type ScanQueue, scanNewRecords } from './scan-requests.ts';
import { nextScanAfter } from './schedule.ts';
import { parentProofFor, standingProofFor } from './shared-proof.ts';
import { latestScans, newVerificationToken, ownDomain, viewOfDomain } from './store.ts';

type ScanRow = typeof scans.$inferSelect;

/**
 * Adds a domain to the workspace's list, within the plan's number of domains and, on the free plan,
 * only the actor's company domain: pending its TXT proof, or verified at once (with its first scan)
 * when the workspace proved a parent of it, or the one adding it proved the same name in another of
 * their workspaces, and that proof stands.
 */
export async function addDomain(
  db: Db,
  queue: ScanQueue,
  ctx: WorkspaceContext,
  request: { domain: string; scanConfig?: ScanConfig },
  now: Date,
): Promise<DomainView> {
  authorize(ctx, 'domains.write');
  const { workspace, actor } = ctx;
  const row = await underWorkspaceLock(db, workspace.id, async (tx) => {
    const quota = await quotaView(tx, workspace, now);
    if (quota.currentDomains >= quota.maxDomains) {
      throw new ServiceError('conflict', 'DOMAIN_LIMIT', DOMAIN_MESSAGES.limit(quota.maxDomains));
    }
    assertFreeTierDomain({ tier: workspace.tier, email: actor.email }, actor.emailVerified, request.domain);
    const [added] = await tx
      .insert(domains)
      .values({
        workspaceId: workspace.id,
        domain: request.domain,
        verificationToken: newVerificationToken(),
        scanConfig: request.scanConfig ?? DEFAULT_SCAN_CONFIG,
      })
      .onConflictDoNothing()
      .returning();
    if (added) await auditIn(tx, ctx, 'domain.added', { domainId: added.id, domain: added.domain });
    return added;
  });
  if (!row) throw new ServiceError('conflict', 'DOMAIN_EXISTS', `${request.domain} is already in your list`);
  // Added before it is verified, as the activity reads: a shared proof verifies it just after.
  const source =
    (await parentProofFor(db, { name: row.domain, workspaceId: workspace.id })) ??
    (await standingProofFor(db, { name: row.domain, actorId: actor.userId, workspaceId: workspace.id }));
  if (!source) return viewOfDomain(db, row);
  const proven = await markOwnershipProven(db, queue, {
    workspace,
    actorId: actor.userId,
    domain: row,
    proof: { shared: source },
    now,
    ip: actor.ip,
  });
  return viewOfDomain(db, proven.domain);
}

export type Verification =
  | { verified: true; domain: DomainView }
  | { verified: false; error: string; domain: DomainView };

/**
 * A subdomain of a domain the workspace has proven is verified on that proof; any other domain's
 * TXT record is looked for. Found: the domain is verified on it (markOwnershipProven,
 * which gives the first scan). Not found: the domain
 * fails verification, unless it was verified before (it keeps its status and says why) or DNS
 * did not answer (an outage says nothing about the record).
 */
export async function verifyDomain(
  db: Db,
  queue: ScanQueue,
  ctx: WorkspaceContext,
  id: string,
  options: { resolvers?: string[]; now: Date },
): Promise<Verification> {
  authorize(ctx, 'domains.write');
  const row = await ownDomain(db, ctx.workspace.id, id);
  // A subdomain added before its parent was proven, or whose parent was proven again: the parent's
  // proof covers it. One on a proof of its own keeps it.
  const ownProof = row.status === 'verified' && (row.proof === 'txt' || row.proof === 'zone');
  const parent = ownProof
    ? undefined
    : await parentProofFor(db, { name: row.domain, workspaceId: row.workspaceId });
  if (parent) {
    const { domain: updated } = await markOwnershipProven(db, queue, {
      workspace: ctx.workspace,
      actorId: ctx.actor.userId,
      domain: row,
      proof: { shared: parent },
      now: options.now,
      ip: ctx.actor.ip,
    });
    return { verified: true, domain: await viewOfDomain(db, updated) };
  }
  const result = await checkOwnership(row.domain, row.verificationToken, { resolvers: options.resolvers });
  if (!result.verified) {
    const [updated] = result.definite
      ? await db
          .update(domains)
          .set(
            row.status === 'verified'
              ? { verificationError: result.error }
              : { status: 'failed', verificationError: result.error },
          )
          .where(eq(domains.id, row.id))
          .returning()
      : [row];
    return { verified: false, error: result.error, domain: await viewOfDomain(db, updated ?? row) };
  }
  const { domain: updated } = await markOwnershipProven(db, queue, {
    workspace: ctx.workspace,
    actorId: ctx.actor.userId,
    domain: row,
    proof: 'txt',
    now: options.now,
    ip: ctx.actor.ip,
  });
  return { verified: true, domain: await viewOfDomain(db, updated) };
}

/** Changes a domain's scan options (its next scan moves with the frequency) and alert settings. */
export async function updateDomain(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  change: { scanConfig?: ScanConfig; alerts?: AlertSettings },
  now: Date,
): Promise<DomainView> {
  authorize(ctx, 'domains.write');
  const workspaceId = ctx.workspace.id;
  const row = await ownDomain(db, workspaceId, id);
  const latest = (await latestScans(db, [row.id])).get(row.id);
  const last = latest?.completedAt ?? latest?.createdAt ?? now;
  const { scanConfig, alerts } = change;
  const [updated] = await db
    .update(domains)
    .set({
      ...(scanConfig
        ? {
            scanConfig,
            nextScanAt: row.status === 'verified' ? nextScanAfter({ ...row, scanConfig }, last) : null,
          }
        : {}),
      ...(alerts
        ? { alertsEmail: alerts.email, alertsWebhook: alerts.webhooks, alertMinStatus: alerts.minStatus }
        : {}),
    })
    .where(and(eq(domains.id, row.id), eq(domains.workspaceId, workspaceId)))
    .returning();
  if (!updated) throw new ServiceError('not-found', 'NOT_FOUND', 'Domain not found');
  return viewOfDomain(db, updated);
}

/**
 * The domain's open findings (not accepted) by status at each completed scan of the last TREND_DAYS
 * days, oldest first, the latest as they stand now: read from the findings' state (openFindingsAt),
 * so a partial scan does not dip the line.
 */
export async function domainTrend(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  now: Date,
): Promise<TrendPoint[]> {
  authorize(ctx, 'read');
  const row = await ownDomain(db, ctx.workspace.id, id);
  const since = new Date(now.getTime() - TREND_DAYS * 24 * 60 * 60_000);
  const completed = await db
    .select({ id: scans.id, at: scans.completedAt })
    .from(scans)
    .where(and(eq(scans.domainId, row.id), eq(scans.status, 'completed'), gte(scans.completedAt, since)))
    .orderBy(asc(scans.completedAt));
  const state = await db
    .select({
      status: sql<string>`${findings.latest}->>'status'`,
      firstSeenAt: findings.firstSeenAt,
      resolvedAt: findings.resolvedAt,
      acceptedAt: findings.acceptedAt,
    })
    .from(findings)
    .where(and(eq(findings.workspaceId, row.workspaceId), eq(findings.domain, row.domain)));
  return completed.map((scan, index) => {
    const at = scan.at as Date;
    // The latest point is the findings as they stand: an acceptance or a fix since that scan counts,
    // so it says what the card's badge and counts say.
    const open = openFindingsAt(state, index === completed.length - 1 ? undefined : at);
    return {
      at: at.toISOString(),
      scanId: scan.id,
      claimable: open.claimable,
      likely: open.likely,
      review: open.review,
    };
  });
}

/**
 * A BIND zone file, streamed, becomes a verified domain's inventory, and the names it brought are
 * scanned (scanNewRecords: the whole inventory on a first upload). A line the parser refuses names
 * itself, and the last good inventory stays.
 */
export async function uploadZoneFile(
  db: Db,
  queue: ScanQueue,
  ctx: WorkspaceContext,
  id: string,
  body: Readable,
  now: Date,
): Promise<{ update: InventoryUpdate; scan: ScanRow | undefined }> {
  authorize(ctx, 'domains.write');
  const domain = await ownDomain(db, ctx.workspace.id, id);
  if (domain.status !== 'verified') {
    throw new ServiceError(
      'conflict',
      'DOMAIN_NOT_VERIFIED',
      `Verify that you own ${domain.domain} before uploading its zone`,
    );
  }
  let update: InventoryUpdate;
  try {
    update = await replaceInventory(
      db,
      domain.id,
      ZONE_FILE_SOURCE,
      parseZoneFile(body, { zone: domain.domain }),
      now,
    );
  } catch (error) {
    if (error instanceof ZoneFileError)
      throw new ServiceError('invalid', 'VALIDATION_ERROR', `Zone file ${error.message}`);
    throw error;
  }
  const scan = await scanNewRecords(db, queue, {
    workspace: ctx.workspace,
    domain,
    full: update.baseline,
    names: update.changedNames,
    now,
  });
  return { update, scan };
}

/**
 * The owner keeps this domain within the plan: their choice comes first, and the domain pushed
 * beyond the plan is the one chosen least recently.
 */
export async function keepDomain(db: Db, ctx: WorkspaceContext, id: string, now: Date): Promise<DomainView> {
  authorize(ctx, 'domains.write');
  const workspaceId = ctx.workspace.id;
  const row = await ownDomain(db, workspaceId, id);
  await db.update(domains).set({ keptAt: now }).where(eq(domains.id, row.id));
  await applyDomainLimit(db, workspaceId);
  return viewOfDomain(db, await ownDomain(db, workspaceId, row.id));
}

/**
 * Removes a domain. Its scans stay until the plan's retention purges them (they lose the link to
 * the domain), and a place within the plan may come free for a domain beyond it. Its findings stay
 * too (they come back with the domain), but their tickets are closed: nobody watches them now.
 */
export async function removeDomain(db: Db, ctx: WorkspaceContext, id: string, now: Date): Promise<void> {
  authorize(ctx, 'domains.write');
  const workspaceId = ctx.workspace.id;
  const row = await ownDomain(db, workspaceId, id);
  await inTransaction(db, async (tx) => {
    await tx.delete(domains).where(and(eq(domains.id, row.id), eq(domains.workspaceId, workspaceId)));
    await auditIn(tx, ctx, 'domain.removed', { domainId: row.id, domain: row.domain });
  });
  await applyDomainLimit(db, workspaceId);
  const open = await db
    .select({ id: findings.id })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, workspaceId),
        eq(findings.domain, row.domain),
        isNull(findings.resolvedAt),
      ),
    );
  await queueTicketSync(
    db,
    workspaceId,
    open.map((f) => f.id),
    { now },
  );
}
