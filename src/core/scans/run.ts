import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { type DatabaseOutage, isDatabaseUnavailable, whenDatabaseAnswers } from '../../db/outage.ts';
import { domains, findings, scans } from '../../db/schema.ts';
import { PROGRESS_WRITE_MS } from '../../model/constants.ts';
import { DEFAULT_SCAN_OPTIONS, type ScanProgress, type ScanRunConfig } from '../../model/contract.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { ScanDeadlineError, scanDomain } from '../../scanner/scan.ts';
import { cloudInventoryForScan } from '../cloud-accounts/inventory.ts';
import { inventoryRecords } from '../domains/inventory.ts';
import { nextScanAfter } from '../domains/schedule.ts';
import type { EngineSettings } from '../engine-settings.ts';
import { recordFindingHistory } from '../findings/lifecycle.ts';
import { queueScanTickets } from '../integrations/tickets.ts';
import { expireAcceptances } from '../triage/acceptance-expiry.ts';
import { workspaceTier } from '../workspaces/workspaces.ts';
import { claimScan } from './concurrency.ts';

type RunOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped' | 'deferred' | 'released';

export const CANCELLED_MESSAGE = 'Cancelled by you';

/**
 * Runs one scan row: claims it (pending → running) so that no two workers run it, runs the engine
 * with the scan's options, writes progress and a heartbeat while it runs, watches for a cancel,
 * and stores the result. 'deferred': the workspace already runs the most scans one workspace may
 * (claimScan), so the caller queues it again for later. 'released': the worker is shutting down and the
 * scan is pending again, its attempt not counted; the next worker to start picks it up.
 */
export async function runScan(
  db: Db,
  scanId: string,
  settings: EngineSettings,
  logger: Logger,
  options: {
    engine?: typeof scanDomain;
    /** The worker is shutting down: the scan goes back to pending, for the next worker. */
    shutdown?: AbortSignal;
    /** Hears of database outages, which are logged once rather than at every progress write. */
    outage?: DatabaseOutage;
  } = {},
): Promise<RunOutcome> {
  const engine = options.engine ?? scanDomain;
  if (options.shutdown?.aborted) return 'skipped';
  const [pending] = await db.select().from(scans).where(eq(scans.id, scanId));
  if (pending?.status !== 'pending') return 'skipped';
  const startedAt = new Date();
  const claimed = await claimScan(db, pending, startedAt);
  if (claimed === 'deferred') return 'deferred';
  if (!claimed) return 'skipped';
  const attempt = claimed.attempts;
  const mine = and(eq(scans.id, scanId), eq(scans.status, 'running'), eq(scans.attempts, attempt));

  const controller = new AbortController();
  const release = () => controller.abort();
  options.shutdown?.addEventListener('abort', release, { once: true });
  let progress: ScanProgress = { stage: 'discover', checked: 0, total: 0 };
  let writing = Promise.resolve();
  const beat = async () => {
    const [row] = await db
      .update(scans)
      .set({ progress, heartbeatAt: new Date() })
      .where(mine)
      .returning({ cancel: scans.cancelRequested });
    // Cancelled by the user, or taken back by the reaper: stop either way.
    if (!row || row.cancel) controller.abort();
  };
  const timer = setInterval(() => {
    writing = writing
      .then(beat)
      .catch((error) =>
        isDatabaseUnavailable(error)
          ? options.outage?.failed(error, 'scan progress')
          : logger.warn({ err: error, scanId }, 'progress write failed'),
      );
  }, PROGRESS_WRITE_MS);

  const config: ScanRunConfig = claimed.config ?? DEFAULT_SCAN_OPTIONS;
  const tier = await workspaceTier(db, { id: claimed.workspaceId });
  const [domain] = claimed.domainId
    ? await db
        .select({ inventorySource: domains.inventorySource })
        .from(domains)
        .where(eq(domains.id, claimed.domainId))
    : [];
  // The zone's own records, where the domain has an inventory (a DNS connection, a zone file):
  // the forgotten names that neither CT nor the wordlist know. A scan of changed records reads
  // just those names.
  const zoneRecords =
    claimed.domainId && domain?.inventorySource
      ? inventoryRecords(db, claimed.domainId, config.names)
      : undefined;
  // The names of open findings are checked again every time, whatever discovery finds today: how
  // else would a deleted record (now NXDOMAIN, so no longer discovered) be seen as resolved?
  const watched = await db
    .select({ subdomain: findings.subdomain })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, claimed.workspaceId),
        eq(findings.domain, claimed.domain),
        isNull(findings.resolvedAt),
      ),
    );
  // The workspace's cloud accounts, as data: a record pointing into a connected cloud is judged
  // against what its accounts held, not by probing the address.
  const cloudInventory = await cloudInventoryForScan(db, claimed.workspaceId);
  try {
    const result = await engine(claimed.domain, {
      maxNames: getPlanForTier(tier).limits.namesPerScan,
      ...settings,
      // A scan of changed records reads them from the inventory (zoneRecords) and nothing else.
      subdomains: [...(settings.subdomains ?? []), ...(config.names ? [] : watched.map((w) => w.subdomain))],
      discovery: !config.skipDiscovery && !config.names,
      ct: config.useCertificateTransparency && !config.names,
      zoneRecords,
      cloudInventory,
      validation: config.useMultiStageValidation,
      signal: controller.signal,
      onProgress: (event) => {
        progress = { stage: event.phase, checked: event.done, total: event.total };
      },
    });
    clearInterval(timer);
    options.shutdown?.removeEventListener('abort', release);
    await writing;
    const completedAt = new Date();
    // The result, the findings' history and the next date are stored together, and again while the
    // database is away (a restart, a failover): the scan ran, so it must not be lost or run twice.
    const done = await whenDatabaseAnswers(
      () =>
        db.transaction(async (tx) => {
          const txDb = tx as unknown as Db;
          const [row] = await txDb
            .update(scans)
            .set({
              status: 'completed',
              completedAt,
              durationSeconds: (completedAt.getTime() - startedAt.getTime()) / 1000,
              progress: { stage: 'done', checked: result.subdomains.length, total: result.subdomains.length },
              subdomainsScanned: result.subdomains.length,
              vulnerabilitiesFound: result.findings.length,
              criticalCount: result.findings.filter((f) => f.risk === 'high').length,
              falsePositivesFiltered: result.stats.filtered,
              findings: result.findings,
              subdomains: result.subdomains,
              scanErrors: result.errors,
              fingerprints: [...result.fingerprints],
              heartbeatAt: completedAt,
            })
            .where(mine)
            .returning();
          if (!row) return undefined;
          const changes = await recordFindingHistory(
            txDb,
            row,
            result.findings,
            result.subdomains,
            completedAt,
          );
          await txDb.update(scans).set({ changes }).where(eq(scans.id, row.id));
          if (row.domainId) await scheduleNext(txDb, row.domainId, completedAt);
          return row;
        }),
      { outage: options.outage },
    );
    if (!done) return 'skipped';
    // At every scan: the domain's acceptances that ended are ended now, and its tickets follow
    // what the scan found (a rescan that changed nothing queues nothing).
    await expireAcceptances(db, completedAt, { workspaceId: done.workspaceId, domain: done.domain });
    await queueScanTickets(db, done, completedAt);
    logger.info(
      { scanId, findings: result.findings.length, names: result.subdomains.length },
      'scan completed',
    );
    return 'completed';
  } catch (error) {
    clearInterval(timer);
    options.shutdown?.removeEventListener('abort', release);
    await writing;
    if (options.shutdown?.aborted) {
      const [released] = await db
        .update(scans)
        .set({ status: 'pending', startedAt: null, progress: null, attempts: sql`${scans.attempts} - 1` })
        .where(mine)
        .returning({ id: scans.id });
      return released ? 'released' : 'skipped';
    }
    const cancelled = controller.signal.aborted;
    const message = cancelled ? CANCELLED_MESSAGE : failureMessage(error);
    const completedAt = new Date();
    const [ended] = await whenDatabaseAnswers(
      () =>
        db
          .update(scans)
          .set({
            status: cancelled ? 'cancelled' : 'failed',
            completedAt,
            durationSeconds: (completedAt.getTime() - startedAt.getTime()) / 1000,
            error: message,
          })
          .where(mine)
          .returning({ id: scans.id }),
      { outage: options.outage },
    );
    if (!ended) return 'skipped';
    if (!cancelled) logger.warn({ scanId, err: error }, 'scan failed');
    return cancelled ? 'cancelled' : 'failed';
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof ScanDeadlineError) {
    return 'The scan took longer than its time limit and was stopped. Large zones may need a scan with discovery off.';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The scan could not finish: ${message}`;
}

/** A scheduled domain is scanned again at its minute of the day, about one interval after its last scan ended. */
async function scheduleNext(db: Db, domainId: string, last: Date): Promise<void> {
  const [domain] = await db.select().from(domains).where(eq(domains.id, domainId));
  if (domain?.status !== 'verified') return;
  await db
    .update(domains)
    .set({ nextScanAt: nextScanAfter(domain, last) })
    .where(eq(domains.id, domainId));
}
