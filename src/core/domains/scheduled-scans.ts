import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Db, inTransaction, queryRows } from '../../db/client.ts';
import { domains, scans } from '../../db/schema.ts';
import { VERIFICATION_GRACE_MS } from '../../model/constants.ts';
import { releaseLease, renewLease, takeLease } from '../leases.ts';
import {
  OWNERSHIP_CHECKS_AT_ONCE,
  SCHEDULE_LEASE_MS,
  SCHEDULE_PAGE_SIZE,
  SCHEDULE_PASS_BUDGET_MS,
} from '../limits.ts';
import { checkOwnership, txtValue } from './ownership.ts';
import { ACTIVE_SCAN_STATUSES, enqueueAll, provenByDelegation, type ScanQueue } from './scan-requests.ts';
import { nextScanAfter } from './schedule.ts';
import { lapseSharedProofs } from './shared-proof.ts';
import type { DomainRow } from './views.ts';

/** The lease one pass at a time holds (src/core/leases.ts). */
const SCHEDULER_LEASE = 'schedule-scans';

function pausedMessage(domain: DomainRow, since: Date): string {
  const day = since.toISOString().slice(0, 10);
  const txt = txtValue(domain.verificationToken);
  return domain.proof === 'zone'
    ? `Monitoring paused: since ${day}, public DNS no longer delegates ${domain.domain} to its connected DNS zone, and the TXT record ${txt} is not there either. Delegate the domain back, or add the TXT record and verify again, to resume.`
    : `Monitoring paused: the TXT record ${txt} has been missing from ${domain.domain} since ${day}. Add it back and verify again to resume.`;
}

/** What one pass did. */
export interface SchedulingPass {
  /** Another pass was running: this one left without reading anything. */
  busy: boolean;
  /** Due domains the pass dealt with (scanned, paused, or lapsed with their shared proof). */
  reached: number;
  /** Scans it started (a domain whose scan is still active gets none). */
  started: number;
  /** Its time ran out with domains still due: the next pass starts with them. */
  stoppedAtDeadline: boolean;
}

interface PassOptions {
  /** The scan resolvers, through which ownership records are looked up. */
  resolvers?: string[];
  /** The time the schedule is read at (tests); the pass's own time limit runs on the real clock. */
  now?: Date;
  pageSize?: number;
  budgetMs?: number;
}

/**
 * Starts the scans that are due: verified, active domains within their plan whose next scan time
 * has come, the most overdue first, a page at a time. Ownership is checked again; a record gone for
 * seven days pauses monitoring with the reason. One pass runs at a time across all workers (a
 * second one leaves at once), and a pass stops at its time limit, leaving the rest due. Each
 * domain costs the same whatever the number of domains: a page is one indexed read, its scans are
 * one transaction and one job insert, and its ownership checks run side by side, bounded.
 */
export async function scheduleDueScans(
  db: Db,
  queue: ScanQueue,
  logger: Logger,
  options: PassOptions = {},
): Promise<SchedulingPass> {
  const pass: SchedulingPass = { busy: false, reached: 0, started: 0, stoppedAtDeadline: false };
  const holder = randomUUID();
  if (!(await takeLease(db, SCHEDULER_LEASE, holder, SCHEDULE_LEASE_MS))) return { ...pass, busy: true };
  try {
    const now = options.now ?? new Date();
    const pageSize = options.pageSize ?? SCHEDULE_PAGE_SIZE;
    const deadline = performance.now() + (options.budgetMs ?? SCHEDULE_PASS_BUDGET_MS);
    let after: DomainRow | undefined;
    for (;;) {
      if (performance.now() >= deadline) {
        pass.stoppedAtDeadline = true;
        break;
      }
      const page = await duePage(db, now, after, pageSize);
      const last = page.at(-1);
      if (!last) break;
      after = last;
      const done = await schedulePage(db, queue, logger, page, {
        now,
        deadline,
        resolvers: options.resolvers,
      });
      pass.reached += done.reached;
      pass.started += done.started;
      if (done.reached < page.length) pass.stoppedAtDeadline = true;
      if (page.length < pageSize || pass.stoppedAtDeadline) break;
      // Held past its end (a stalled database), the lease may be another pass's now: that one goes on.
      if (!(await renewLease(db, SCHEDULER_LEASE, holder, SCHEDULE_LEASE_MS))) break;
    }
    return pass;
  } finally {
    // Not given back (the database went away), the lease runs out by itself.
    await releaseLease(db, SCHEDULER_LEASE, holder).catch((error: unknown) =>
      logger.warn({ err: error }, 'scheduling lease not given back: it runs out by itself'),
    );
  }
}

/** The next page of due domains after `after`, in the order of the `domains_due` index. */
function duePage(db: Db, now: Date, after: DomainRow | undefined, size: number): Promise<DomainRow[]> {
  const conditions: (SQL | undefined)[] = [
    eq(domains.status, 'verified'),
    isNull(domains.pausedReason),
    eq(domains.overPlanLimit, false),
    lte(domains.nextScanAt, now),
    ne(sql`${domains.scanConfig}->>'scanFrequency'`, 'manual'),
  ];
  if (after?.nextScanAt) {
    conditions.push(
      sql`(${domains.nextScanAt}, ${domains.id}) > (${after.nextScanAt.toISOString()}::timestamptz, ${after.id}::uuid)`,
    );
  }
  return db
    .select()
    .from(domains)
    .where(and(...conditions))
    .orderBy(asc(domains.nextScanAt), asc(domains.id))
    .limit(size);
}

type Ownership = Awaited<ReturnType<typeof checkOwnership>>;

/**
 * One page. A domain is scanned whatever its TXT lookup finds unless the record has been missing
 * for the whole grace period (then a definite miss pauses it): those wait for their lookup, every
 * other domain's scan starts first, and its lookup only keeps the record's dates.
 */
async function schedulePage(
  db: Db,
  queue: ScanQueue,
  logger: Logger,
  page: DomainRow[],
  context: { now: Date; deadline: number; resolvers: string[] | undefined },
): Promise<{ reached: number; started: number }> {
  const { now, deadline, resolvers } = context;
  const lapsed = await lapseSharedProofs(db, page);
  if (lapsed.size > 0)
    logger.info({ domains: lapsed.size }, 'shared proof lapsed with its source: pending again');
  const standing = page.filter((row) => !lapsed.has(row.id));
  // A zone's delegation (seen by the last sync) or a standing shared proof needs no TXT lookup.
  const looked = standing.filter((row) => row.proof !== 'shared' && !provenByDelegation(row, now));
  const lookedIds = new Set(looked.map((row) => row.id));
  const mayPause = (row: DomainRow) =>
    lookedIds.has(row.id) &&
    row.recordMissingSince !== null &&
    now.getTime() - row.recordMissingSince.getTime() >= VERIFICATION_GRACE_MS;
  const held = standing.filter(mayPause);
  let started = await startScans(
    db,
    queue,
    logger,
    standing.filter((row) => !mayPause(row)),
    now,
  );

  // The ones that may pause first, so that the time limit leaves the others' bookkeeping, not them.
  const found = await lookUpAll([...held, ...looked.filter((row) => !mayPause(row))], deadline, (row) =>
    checkOwnership(row.domain, row.verificationToken, { resolvers }),
  );
  const seen: string[] = [];
  const firstMissed: string[] = [];
  const resumed: DomainRow[] = [];
  let paused = 0;
  for (const [row, ownership] of found) {
    if (ownership.verified) seen.push(row.id);
    else if (ownership.definite && !row.recordMissingSince) firstMissed.push(row.id);
    const pause = mayPause(row) && !ownership.verified && ownership.definite;
    if (pause && row.recordMissingSince) {
      await db
        .update(domains)
        .set({ pausedReason: pausedMessage(row, row.recordMissingSince) })
        .where(eq(domains.id, row.id));
      logger.info({ domain: row.domain }, 'monitoring paused: ownership record missing for 7 days');
      paused += 1;
    } else if (mayPause(row)) resumed.push(row);
  }
  if (seen.length > 0 || firstMissed.length > 0) {
    await byKey(db, async (tx) => {
      if (seen.length > 0) {
        await tx
          .update(domains)
          .set({ recordMissingSince: null, ownershipCheckedAt: now, proof: 'txt' })
          .where(inArray(domains.id, seen));
      }
      if (firstMissed.length > 0) {
        await tx.update(domains).set({ recordMissingSince: now }).where(inArray(domains.id, firstMissed));
      }
    });
  }
  started += await startScans(db, queue, logger, resumed, now);
  const unreached = held.length - resumed.length - paused;
  return { reached: page.length - unreached, started };
}

/**
 * Moves the domains' next scans on and starts a scan of each, in one transaction, then queues
 * their jobs in one insert. Moved on first, so a failed start is not retried every minute (a scan
 * left without its job is queued again by the reaper). A domain whose scan is still active keeps
 * it, and is moved on all the same.
 */
async function startScans(
  db: Db,
  queue: ScanQueue,
  logger: Logger,
  rows: DomainRow[],
  now: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const moves = rows.map((row) => sql`(${row.id}::uuid, ${nextScanOf(row, now).toISOString()}::timestamptz)`);
  const inserted = await byKey(db, async (tx) => {
    // Only domains still due as read: one changed meanwhile (its frequency, its plan, removed) is
    // left as its change made it, and the rows moved stay locked until the scans are in.
    const moved = new Set(
      (
        await queryRows<{ id: string }>(
          tx,
          sql`update domains set next_scan_at = moved.next_scan_at
              from (values ${sql.join(moves, sql`, `)}) as moved (id, next_scan_at)
              where domains.id = moved.id and domains.next_scan_at <= ${now.toISOString()}::timestamptz
                and domains.status = 'verified' and domains.paused_reason is null
                and domains.over_plan_limit = false
              returning domains.id`,
        )
      ).map((row) => row.id),
    );
    const starting = rows.filter((row) => moved.has(row.id));
    if (starting.length === 0) return [];
    return tx
      .insert(scans)
      .values(
        starting.map((row) => {
          const { scanFrequency: _, ...config } = row.scanConfig;
          return {
            workspaceId: row.workspaceId,
            domainId: row.id,
            domain: row.domain,
            trigger: 'scheduled',
            config,
            createdAt: now,
          };
        }),
      )
      .onConflictDoNothing({
        target: [scans.workspaceId, scans.domain],
        // Written out, not as parameters: PostgreSQL matches this to the partial index's predicate.
        where: sql.raw(`status in (${ACTIVE_SCAN_STATUSES.map((status) => `'${status}'`).join(', ')})`),
      })
      .returning({ id: scans.id, domainId: scans.domainId });
  });
  if (inserted.length < rows.length) {
    const startedFor = new Set(inserted.map((scan) => scan.domainId));
    for (const row of rows.filter((r) => !startedFor.has(r.id)))
      logger.info(
        { domain: row.domain },
        'scheduled scan not started: a scan of it is under way, or the domain changed',
      );
  }
  await enqueueAll(
    queue,
    inserted.map((scan) => scan.id),
  );
  return inserted.length;
}

/**
 * Runs a page's writes in one transaction in which every row is reached through an index: they
 * touch a few hundred rows by key, and a plan that reads a table whole instead (a hash join, which
 * the planner prefers while a table is small or its statistics old) would make each page cost as
 * much as the table, and the pass grow with the square of the domains. PostgreSQL takes no hints;
 * these settings last until the transaction ends.
 */
function byKey<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true),
      set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`);
    return work(tx);
  });
}

function nextScanOf(row: DomainRow, now: Date): Date {
  const next = nextScanAfter(row, now);
  if (!next) throw new Error('a domain scanned only on request is never due');
  return next;
}

/**
 * Looks each row up, OWNERSHIP_CHECKS_AT_ONCE at a time; a lookup not started by the deadline is
 * not made. The answers, in the order they came.
 */
async function lookUpAll(
  rows: DomainRow[],
  deadline: number,
  lookUp: (row: DomainRow) => Promise<Ownership>,
): Promise<[DomainRow, Ownership][]> {
  const waiting = [...rows];
  const found: [DomainRow, Ownership][] = [];
  const next = async (): Promise<void> => {
    const row = waiting.shift();
    if (!row || performance.now() >= deadline) return;
    found.push([row, await lookUp(row)]);
    return next();
  };
  await Promise.all(Array.from({ length: OWNERSHIP_CHECKS_AT_ONCE }, next));
  return found;
}
