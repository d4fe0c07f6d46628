import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';
import { SCAN_INTERVAL_MS, VERIFICATION_GRACE_MS } from '../../model/constants.ts';
import { ScanRefused } from '../errors.ts';
import { workspaceTierSql } from '../workspaces/workspaces.ts';
import { checkOwnership, txtValue } from './ownership.ts';
import { provenByDelegation, requestScan, type ScanQueue } from './scan-requests.ts';
import { sharedProofStands } from './shared-proof.ts';
import { nextScanAfter } from './store.ts';
import type { DomainRow } from './views.ts';

function pausedMessage(domain: DomainRow, since: Date): string {
  const day = since.toISOString().slice(0, 10);
  const txt = txtValue(domain.verificationToken);
  return domain.proof === 'zone'
    ? `Monitoring paused: since ${day}, public DNS no longer delegates ${domain.domain} to its connected DNS zone, and the TXT record ${txt} is not there either. Delegate the domain back, or add the TXT record and verify again, to resume.`
    : `Monitoring paused: the TXT record ${txt} has been missing from ${domain.domain} since ${day}. Add it back and verify again to resume.`;
}

/** Due domains whose ownership is checked at once: a slow nameserver holds up one place, not the round. */
const OWNERSHIP_CHECKS_AT_ONCE = 8;

/**
 * Starts the scans that are due: verified, active domains within their plan whose next scan time
 * has come. Ownership is checked again first; a record gone for seven days pauses monitoring with
 * the reason.
 */
export async function scheduleDueScans(
  db: Db,
  queue: ScanQueue,
  logger: Logger,
  options: { resolvers?: string[]; now?: Date } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const due = await db
    .select({ domain: domains, tier: workspaceTierSql(domains.workspaceId) })
    .from(domains)
    .where(
      and(
        eq(domains.status, 'verified'),
        isNull(domains.pausedReason),
        eq(domains.overPlanLimit, false),
        lte(domains.nextScanAt, now),
      ),
    );
  const pending = due.filter(({ domain }) => domain.scanConfig.scanFrequency !== 'manual');
  let started = 0;
  const next = async (): Promise<void> => {
    const item = pending.shift();
    if (!item) return;
    if (await scheduleOne(db, queue, logger, item, now, options.resolvers)) started += 1;
    return next();
  };
  await Promise.all(Array.from({ length: OWNERSHIP_CHECKS_AT_ONCE }, next));
  return started;
}

/** Checks one due domain's ownership and starts its scan; true when a scan was started. */
async function scheduleOne(
  db: Db,
  queue: ScanQueue,
  logger: Logger,
  { domain, tier }: { domain: DomainRow; tier: string },
  now: Date,
  resolvers: string[] | undefined,
): Promise<boolean> {
  if (!(await sharedProofStands(db, domain))) {
    logger.info({ domain: domain.domain }, 'shared proof lapsed with its source: pending again');
    return false;
  }
  // A zone's delegation (seen by the last sync) or a standing shared proof needs no TXT lookup.
  const provenElsewhere = domain.proof === 'shared' || provenByDelegation(domain, now);
  const ownership = provenElsewhere
    ? ({ verified: true } as const)
    : await checkOwnership(domain.domain, domain.verificationToken, { resolvers });
  if (!ownership.verified && ownership.definite) {
    const since = domain.recordMissingSince ?? now;
    if (now.getTime() - since.getTime() >= VERIFICATION_GRACE_MS) {
      await db
        .update(domains)
        .set({
          pausedReason: pausedMessage(domain, since),
          recordMissingSince: since,
        })
        .where(eq(domains.id, domain.id));
      logger.info({ domain: domain.domain }, 'monitoring paused: ownership record missing for 7 days');
      return false;
    }
    if (!domain.recordMissingSince) {
      await db.update(domains).set({ recordMissingSince: now }).where(eq(domains.id, domain.id));
    }
  } else if (ownership.verified && !provenElsewhere) {
    await db
      .update(domains)
      .set({ recordMissingSince: null, ownershipCheckedAt: now, proof: 'txt' })
      .where(eq(domains.id, domain.id));
  }
  // Moved on first, so a slow or failed start is not retried every minute.
  await db
    .update(domains)
    .set({
      nextScanAt: nextScanAfter(domain.scanConfig, now) ?? new Date(now.getTime() + SCAN_INTERVAL_MS.daily),
    })
    .where(eq(domains.id, domain.id));
  const { scanFrequency: _, ...config } = domain.scanConfig;
  try {
    await requestScan(db, queue, {
      workspace: { id: domain.workspaceId, tier },
      domain,
      trigger: 'scheduled',
      config,
      now,
    });
    return true;
  } catch (error) {
    if (!(error instanceof ScanRefused)) throw error;
    logger.info({ domain: domain.domain, reason: error.message }, 'scheduled scan not started');
    return false;
  }
}
