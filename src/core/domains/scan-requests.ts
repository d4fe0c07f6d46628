import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { violatesUnique } from '../../db/constraints.ts';
import { domains, scans } from '../../db/schema.ts';
import { OWNERSHIP_RECHECK_MS } from '../../model/constants.ts';
import type { ScanRunConfig, StartScanRequest } from '../../model/contract.ts';
import { scanQuotaMessage } from '../../model/messages.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { domainNameSchema } from '../../model/schemas.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { audit } from '../audit.ts';
import { ScanRefused } from '../errors.ts';
import { parseInput } from '../validation.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';
import { checkOwnership, txtValue } from './ownership.ts';
import { OVER_PLAN_LIMIT_MESSAGE } from './plan-limit.ts';
import { quotaView } from './quota.ts';
import { SHARED_PROOF_LAPSED, sharedProofStands } from './shared-proof.ts';
import type { DomainRow, ScanRow } from './views.ts';

/** Hands a scan to the workers (a pg-boss job in production, see src/worker/queue.ts). */
export interface ScanQueue {
  enqueue(scanId: string, delaySeconds?: number): Promise<void>;
  /** Many scans at once, in one insert (the scheduling pass's pages); one by one without it. */
  enqueueMany?(scanIds: string[]): Promise<void>;
}

/** Queues the scans in one go when the queue can, else one by one. */
export async function enqueueAll(queue: ScanQueue, scanIds: string[]): Promise<void> {
  if (scanIds.length === 0) return;
  if (queue.enqueueMany) return queue.enqueueMany(scanIds);
  for (const id of scanIds) await queue.enqueue(id);
}

/** `zone-change`: records that changed in a connected zone, scanned minutes after the sync saw them. */
export type ScanTrigger = 'manual' | 'rescan' | 'scheduled' | 'zone-change';

/** Scans that hold a domain: a new one waits until they end. */
export const ACTIVE_SCAN_STATUSES = ['pending', 'running'];
/** The unique index that holds one active scan per workspace and domain name (src/db/schema.ts). */
export const ACTIVE_SCAN_INDEX = 'scans_active';

function scanInProgress(domain: string, activeId: string | undefined): ScanRefused {
  return new ScanRefused('conflict', 'SCAN_IN_PROGRESS', `A scan of ${domain} is already running`, [
    { path: 'scan_id', message: activeId ?? '' },
  ]);
}

/** The workspace's active scan of the name, if any (by name: see requestScan). */
async function activeScanOf(db: Db, workspaceId: string, domain: string): Promise<string | undefined> {
  const [active] = await db
    .select({ id: scans.id })
    .from(scans)
    .where(
      and(
        eq(scans.workspaceId, workspaceId),
        eq(scans.domain, domain),
        inArray(scans.status, ACTIVE_SCAN_STATUSES),
      ),
    )
    .limit(1);
  return active?.id;
}

/**
 * Starts a scan of a verified domain: one at a time per domain, and within the plan's daily quota
 * for scans the user asks for (scheduled scans are the plan's own and do not count).
 */
export async function requestScan(
  db: Db,
  queue: ScanQueue,
  request: {
    /** The workspace the scan belongs to, with its plan. */
    workspace: { id: string; tier: string };
    /** Who asked for it (a scan the user starts is in the audit log as theirs). */
    actorId?: string;
    domain: DomainRow;
    trigger: ScanTrigger;
    config: ScanRunConfig;
    now: Date;
    /** The requester's address, for the audit log. */
    ip?: string;
    /** The scan resolvers, through which the ownership record is checked again. */
    resolvers?: string[];
  },
): Promise<ScanRow> {
  const { workspace, domain, trigger, config, now } = request;
  if (domain.status !== 'verified') {
    throw new ScanRefused(
      'conflict',
      'DOMAIN_NOT_VERIFIED',
      `Verify that you own ${domain.domain} before scanning it`,
    );
  }
  if (domain.overPlanLimit) throw new ScanRefused('forbidden', 'PLAN_LIMIT', OVER_PLAN_LIMIT_MESSAGE);
  if (trigger === 'manual' || trigger === 'rescan')
    await assertStillOwned(db, domain, now, request.resolvers);
  // The checks and the insert under the user's lock: two requests at once cannot both take the
  // day's last scan. The job goes in once the row is committed.
  const row = await underWorkspaceLock(db, workspace.id, async (tx) => {
    // By name, not by row: a scan left running by a removed domain still holds the name when the
    // domain is added again.
    const active = await activeScanOf(tx, workspace.id, domain.domain);
    if (active) throw scanInProgress(domain.domain, active);
    if (trigger === 'manual' || trigger === 'rescan') {
      const quota = await quotaView(tx, workspace, now);
      if (quota.maxScansPerDay !== null && quota.scansUsedToday >= quota.maxScansPerDay) {
        const plan = getPlanForTier(workspace.tier);
        throw new ScanRefused(
          'conflict',
          'QUOTA_EXCEEDED',
          scanQuotaMessage(quota.maxScansPerDay, plan.name),
        );
      }
    }
    const [inserted] = await tx
      .insert(scans)
      .values({
        workspaceId: workspace.id,
        domainId: domain.id,
        domain: domain.domain,
        trigger,
        config,
        createdAt: now,
      })
      .returning();
    if (!inserted) throw new Error('insert returned no scan');
    if (trigger === 'manual' || trigger === 'rescan') {
      await audit(tx, {
        userId: request.actorId ?? workspace.id,
        workspaceId: workspace.id,
        action: 'scan.started',
        detail: { scanId: inserted.id, domain: domain.domain, trigger },
        ip: request.ip,
      });
    }
    return inserted;
  }).catch(async (error: unknown) => {
    // The scheduling pass inserts without the workspace's lock: the index settles that race.
    if (violatesUnique(error, ACTIVE_SCAN_INDEX))
      throw scanInProgress(domain.domain, await activeScanOf(db, workspace.id, domain.domain));
    throw error;
  });
  await queue.enqueue(row.id);
  return row;
}

/**
 * Every new source of names scans them: a zone linked or read for the first time, or uploaded,
 * starts a scan of what it brought, within the plan's names but not the day's quota (it is not a
 * scan the user asked for). A whole new inventory (`full`: its first read, or the domain proven
 * just now) is a full scan, which reads every record of it; otherwise the names whose records were
 * added or changed. A scan of the domain already running leaves them to the next one.
 */
export async function scanNewRecords(
  db: Db,
  queue: ScanQueue,
  request: {
    workspace: { id: string; tier: string };
    domain: DomainRow;
    full: boolean;
    names: readonly string[];
    now: Date;
  },
): Promise<ScanRow | undefined> {
  const { workspace, domain, full, names, now } = request;
  if (domain.status !== 'verified' || domain.overPlanLimit || (!full && names.length === 0)) return undefined;
  const { scanFrequency: _, ...config } = domain.scanConfig;
  try {
    return await requestScan(db, queue, {
      workspace,
      domain,
      trigger: full ? 'scheduled' : 'zone-change',
      config: full ? config : { ...config, names: [...names] },
      now,
    });
  } catch (error) {
    if (error instanceof ScanRefused) return undefined;
    throw error;
  }
}

/**
 * A domain standing on its connected zone is proven while the syncs keep finding public DNS
 * delegating it there (see dns-connections/zone-proof.ts): the last one within a day counts as a
 * TXT record found today would. A zone listing alone proves nothing: anyone can create a zone.
 */
export function provenByDelegation(domain: DomainRow, now: Date): boolean {
  return (
    domain.proof === 'zone' &&
    domain.recordMissingSince === null &&
    now.getTime() - domain.ownershipCheckedAt.getTime() <= OWNERSHIP_RECHECK_MS
  );
}

/**
 * Proving ownership once is not enough: whoever lost the domain (a former contractor, the previous
 * owner of a re-registered name) must not go on scanning it. A scan the user asks for is refused
 * while monitoring is paused for a missing record, and checks the record again when it was last
 * seen more than a day ago. A DNS failure is no evidence either way and lets the scan go.
 */
async function assertStillOwned(db: Db, domain: DomainRow, now: Date, resolvers?: string[]): Promise<void> {
  if (domain.pausedReason) throw new ScanRefused('conflict', 'DOMAIN_PAUSED', domain.pausedReason);
  // A shared proof is checked at every scan: it costs one read, and its source may be gone since.
  if (domain.proof === 'shared') {
    if (await sharedProofStands(db, domain)) return;
    throw new ScanRefused('conflict', 'DOMAIN_NOT_VERIFIED', SHARED_PROOF_LAPSED);
  }
  if (now.getTime() - domain.ownershipCheckedAt.getTime() <= OWNERSHIP_RECHECK_MS) return;
  if (provenByDelegation(domain, now)) return;
  const result = await checkOwnership(domain.domain, domain.verificationToken, { resolvers });
  if (result.verified) {
    await db
      .update(domains)
      .set({ ownershipCheckedAt: now, recordMissingSince: null, proof: 'txt' })
      .where(eq(domains.id, domain.id));
    return;
  }
  if (!result.definite) return;
  await db
    .update(domains)
    .set({ recordMissingSince: domain.recordMissingSince ?? now, verificationError: result.error })
    .where(eq(domains.id, domain.id));
  throw new ScanRefused(
    'conflict',
    'OWNERSHIP_NOT_FOUND',
    `The TXT record ${txtValue(domain.verificationToken)} is no longer at ${domain.domain}. Add it back and verify again to scan this domain.`,
  );
}

/**
 * A scan asked for by domain name (POST /scan/api/v1/scan, POST /api/v1/scans): of one of the
 * workspace's verified domains, with the domain's options unless the request overrides them.
 */
export async function startRequestedScan(
  db: Db,
  queue: ScanQueue,
  ctx: WorkspaceContext,
  request: { body: StartScanRequest; now: Date; resolvers?: string[] },
): Promise<ScanRow> {
  authorize(ctx, 'scans.start');
  const { body, now, resolvers } = request;
  const name = parseInput(domainNameSchema, body.domain);
  const [domain] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.workspaceId, ctx.workspace.id), eq(domains.domain, name)));
  if (!domain) {
    throw new ScanRefused(
      'conflict',
      'DOMAIN_NOT_VERIFIED',
      `Add ${name} and verify that you own it before scanning it`,
    );
  }
  return requestScan(db, queue, {
    workspace: ctx.workspace,
    actorId: ctx.actor.userId,
    domain,
    trigger: 'manual',
    config: {
      skipDiscovery: body.skip_discovery ?? domain.scanConfig.skipDiscovery,
      useCertificateTransparency:
        body.use_certificate_transparency ?? domain.scanConfig.useCertificateTransparency,
      useMultiStageValidation: body.use_multi_stage_validation ?? domain.scanConfig.useMultiStageValidation,
    },
    now,
    ip: ctx.actor.ip,
    resolvers,
  });
}
