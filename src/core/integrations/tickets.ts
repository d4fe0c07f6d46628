import { and, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  domains,
  findings,
  integrationDeliveries,
  integrations,
  integrationTickets,
} from '../../db/schema.ts';
import { FINDING_STATUSES, type FindingStatus } from '../../model/contract.ts';
import { findingKey } from '../findings/key.ts';

type FindingRow = typeof findings.$inferSelect;
export type TicketState = 'open' | 'closed';

const rank = (status: FindingStatus) => FINDING_STATUSES.indexOf(status);

/** Where a finding's ticket should be, and the words its closing comment carries. */
export function wantedTicket(
  row: FindingRow,
  minStatus: FindingStatus,
  monitored: boolean,
): { wanted: TicketState; reason: string | null } {
  if (!monitored) {
    return {
      wanted: 'closed',
      reason: `The domain ${row.domain} was removed from DangleWatch: nobody watches this record any more.`,
    };
  }
  if (row.resolvedAt) {
    return {
      wanted: 'closed',
      reason: `Fixed: the scan of ${row.resolvedAt.toISOString().slice(0, 10)} found ${row.subdomain} no longer dangling.`,
    };
  }
  if (row.acceptedAt) {
    const until = row.acceptedUntilRecordChanges
      ? 'the record changes'
      : (row.acceptedUntil?.toISOString() ?? 'no date kept');
    return {
      wanted: 'closed',
      reason: `Accepted as a risk by ${row.acceptedBy ?? 'a member'}: “${row.acceptedNote ?? ''}”, until ${until}.`,
    };
  }
  if (rank(row.latest.status) < rank(minStatus)) {
    return {
      wanted: 'closed',
      reason: `Its status is now ${row.latest.status}, below this integration's minimum (${minStatus}).`,
    };
  }
  return { wanted: 'open', reason: null };
}

/**
 * Brings the tickets of some of the workspace's findings to the state the findings are in now, in
 * every integration of the workspace: a ticket whose wanted state changes is queued for delivery by
 * claimTicketDeliveries; one that stays as it was queues nothing (a rescan that changed nothing sends
 * nothing). A finding whose target or kind changed has a new key: its old ticket is closed.
 * `reasons` gives the words of a reopening (an acceptance that ended).
 */
export async function queueTicketSync(
  db: Db,
  workspaceId: string,
  findingIds: readonly string[],
  options: { now: Date; reasons?: ReadonlyMap<string, string> },
): Promise<number> {
  if (findingIds.length === 0) return 0;
  const targets = await db.select().from(integrations).where(eq(integrations.workspaceId, workspaceId));
  if (targets.length === 0) return 0;
  const rows = await db
    .select()
    .from(findings)
    .where(and(eq(findings.workspaceId, workspaceId), inArray(findings.id, [...findingIds])));
  if (rows.length === 0) return 0;
  const tickets = await db
    .select()
    .from(integrationTickets)
    .where(
      and(
        inArray(
          integrationTickets.integrationId,
          targets.map((t) => t.id),
        ),
        inArray(integrationTickets.findingId, [...findingIds]),
      ),
    );
  const ticketOf = new Map(tickets.map((t) => [`${t.integrationId} ${t.findingKey}`, t]));
  // A finding outlives its domain's removal (it comes back with the domain); its ticket does not stay open.
  const monitored = new Set(
    (
      await db
        .select({ domain: domains.domain })
        .from(domains)
        .where(
          and(
            eq(domains.workspaceId, workspaceId),
            inArray(domains.domain, [...new Set(rows.map((row) => row.domain))]),
          ),
        )
    ).map((d) => d.domain),
  );
  const keyOf = new Map(rows.map((row) => [row.id, findingKey(workspaceId, row.latest)]));
  let changed = 0;
  for (const target of targets) {
    for (const row of rows) {
      const key = keyOf.get(row.id) ?? '';
      const { wanted, reason } = wantedTicket(row, target.minStatus, monitored.has(row.domain));
      const ticket = ticketOf.get(`${target.id} ${key}`);
      const status = row.latest.status;
      if (
        ticket &&
        ticket.wanted === 'open' &&
        wanted === 'open' &&
        ticket.status &&
        ticket.status !== status
      ) {
        // Open, and its status changed: one comment saying so (delivered again as open).
        await db
          .update(integrationTickets)
          .set({
            status,
            reason: `Its status changed: ${ticket.status} → ${status}.`,
            // Delivered again as open, even while an earlier delivery is still on its way.
            delivered: null,
            queued: null,
            updatedAt: options.now,
          })
          .where(
            and(eq(integrationTickets.integrationId, target.id), eq(integrationTickets.findingKey, key)),
          );
        changed += 1;
        continue;
      }
      if (ticket ? ticket.wanted === wanted : wanted === 'closed') continue;
      const words = wanted === 'open' ? (options.reasons?.get(row.id) ?? null) : reason;
      await db
        .insert(integrationTickets)
        .values({
          integrationId: target.id,
          findingKey: key,
          findingId: row.id,
          wanted,
          reason: words,
          status,
        })
        .onConflictDoUpdate({
          target: [integrationTickets.integrationId, integrationTickets.findingKey],
          set: { findingId: row.id, wanted, reason: words, status, updatedAt: options.now },
        });
      changed += 1;
    }
  }
  for (const ticket of tickets) {
    if (ticket.wanted !== 'open' || !ticket.findingId || keyOf.get(ticket.findingId) === ticket.findingKey)
      continue;
    await db
      .update(integrationTickets)
      .set({
        wanted: 'closed',
        reason: 'The record changed (its target or kind): this is no longer the same finding.',
        updatedAt: options.now,
      })
      .where(
        and(
          eq(integrationTickets.integrationId, ticket.integrationId),
          eq(integrationTickets.findingKey, ticket.findingKey),
        ),
      );
    changed += 1;
  }
  return changed;
}

/** After a completed scan: the tickets of the domain's open findings and of those it resolved. */
export async function queueScanTickets(
  db: Db,
  scan: { id: string; workspaceId: string; domain: string },
  now: Date,
): Promise<number> {
  const ids = await db
    .select({ id: findings.id })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, scan.workspaceId),
        eq(findings.domain, scan.domain),
        or(isNull(findings.resolvedAt), eq(findings.resolvedByScanId, scan.id)),
      ),
    );
  return queueTicketSync(
    db,
    scan.workspaceId,
    ids.map((r) => r.id),
    { now },
  );
}

/**
 * Claims the tickets whose wanted state is neither delivered nor queued yet and makes a delivery of
 * each: claimed in one statement, so two workers never queue the same change twice. A disabled
 * integration's tickets wait, unclaimed, until it is re-enabled. Answers the deliveries to queue,
 * with the workspace (the queue's tenant).
 */
export async function claimTicketDeliveries(db: Db): Promise<{ id: string; workspaceId: string }[]> {
  const claimed = await db
    .update(integrationTickets)
    .set({ queued: sql`${integrationTickets.wanted}` })
    .where(
      and(
        sql`${integrationTickets.delivered} is distinct from ${integrationTickets.wanted}`,
        sql`${integrationTickets.queued} is distinct from ${integrationTickets.wanted}`,
        notInArray(
          integrationTickets.integrationId,
          db.select({ id: integrations.id }).from(integrations).where(isNotNull(integrations.disabledAt)),
        ),
      ),
    )
    .returning({
      integrationId: integrationTickets.integrationId,
      findingKey: integrationTickets.findingKey,
      wanted: integrationTickets.wanted,
    });
  if (claimed.length === 0) return [];
  const owners = await db
    .select({ id: integrations.id, workspaceId: integrations.workspaceId })
    .from(integrations)
    .where(
      inArray(
        integrations.id,
        claimed.map((c) => c.integrationId),
      ),
    );
  const workspaceOf = new Map(owners.map((o) => [o.id, o.workspaceId]));
  const made = await db
    .insert(integrationDeliveries)
    .values(
      claimed.map((c) => ({ integrationId: c.integrationId, findingKey: c.findingKey, action: c.wanted })),
    )
    .returning({ id: integrationDeliveries.id, integrationId: integrationDeliveries.integrationId });
  return made.map((d) => ({ id: d.id, workspaceId: workspaceOf.get(d.integrationId) ?? '' }));
}
