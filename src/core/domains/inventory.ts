import { and, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import { ProviderError, type ProviderId } from '../../connectors/dns/provider.ts';
import type { Db } from '../../db/client.ts';
import { domains, zoneRecordChanges, zoneRecords } from '../../db/schema.ts';
import type { InventoryView } from '../../model/contract.ts';
import { encodeInventoryCursor, type InventoryCursor } from '../../model/schemas.ts';
import type { ZoneRecord } from '../../scanner/zone/record.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { ServiceError } from '../errors.ts';
import { INVENTORY_RECORD_LIMIT } from '../limits.ts';
import { ownDomain } from './store.ts';

/** Records written per statement while a zone is stored. */
const BATCH = 500;

export interface InventoryUpdate {
  /** Records in the zone now. */
  records: number;
  added: number;
  changed: number;
  removed: number;
  /**
   * Owner names whose records were added or changed: what a scan of the changes looks at (on the
   * baseline, every name).
   */
  changedNames: string[];
  /** The zone's first read: every record is new, and none counts as a change. */
  baseline: boolean;
}

const keyOf = (record: { name: string; type: string; data: string }) =>
  `${record.name}\u0000${record.type}\u0000${record.data}`;

/**
 * A zone beyond INVENTORY_RECORD_LIMIT, in the words of its source: 413 for an uploaded file, a
 * provider's failure for a sync (which the connection then shows as its sync error).
 */
function tooLarge(source: string): Error {
  const cap = INVENTORY_RECORD_LIMIT.toLocaleString('en-US');
  if (source === ZONE_FILE_SOURCE) {
    return new ServiceError(
      'too-large',
      'INVENTORY_TOO_LARGE',
      `The zone file holds more than ${cap} records, the most DangleWatch keeps for one domain`,
    );
  }
  return new ProviderError(
    source as ProviderId,
    'too-large',
    `more than ${cap} records`,
    `The zone holds more than ${cap} records, the most DangleWatch keeps for one domain: the last good inventory is kept`,
  );
}

/**
 * Makes the zone just read from `source`, streamed, that source's part of the domain's inventory,
 * and records what changed since the last read (added, TTL changed, removed). Each source (a
 * provider's zone, a zone file) is a set of its own: an upload replaces only the zone file's, a sync
 * only the provider's, and the inventory is their union. A record another source still holds is
 * neither added to nor removed from the domain, so its history says nothing of it. The domain's
 * first read is the baseline: stored, but not a change. One transaction, so a read that fails
 * half-way, or a zone beyond INVENTORY_RECORD_LIMIT, leaves the last good inventory.
 */
export async function replaceInventory(
  db: Db,
  domainId: string,
  source: string,
  records: AsyncIterable<ZoneRecord>,
  at: Date,
): Promise<InventoryUpdate> {
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const [domain] = await txDb
      .select({ readAt: domains.inventoryReadAt })
      .from(domains)
      .where(eq(domains.id, domainId))
      .for('update');
    const baseline = !domain?.readAt;
    const known = new Map<string, { id: string; ttl: number }>();
    const elsewhere = new Set<string>();
    for (const row of await txDb
      .select({
        id: zoneRecords.id,
        name: zoneRecords.name,
        type: zoneRecords.type,
        data: zoneRecords.data,
        ttl: zoneRecords.ttl,
        source: zoneRecords.source,
      })
      .from(zoneRecords)
      .where(eq(zoneRecords.domainId, domainId))) {
      if (row.source === source) known.set(keyOf(row), { id: row.id, ttl: row.ttl });
      else elsewhere.add(keyOf(row));
    }
    const seen = new Set<string>();
    const changes: (typeof zoneRecordChanges.$inferInsert)[] = [];
    const changedNames = new Set<string>();
    let batch: (typeof zoneRecords.$inferInsert)[] = [];
    let count = 0;
    const flush = async () => {
      if (!batch.length) return;
      await txDb
        .insert(zoneRecords)
        .values(batch)
        .onConflictDoUpdate({
          target: [
            zoneRecords.domainId,
            zoneRecords.name,
            zoneRecords.type,
            zoneRecords.data,
            zoneRecords.source,
          ],
          set: { ttl: sql`excluded.ttl`, lastSeenAt: sql`excluded.last_seen_at` },
        });
      batch = [];
    };
    for await (const record of records) {
      const key = keyOf(record);
      if (seen.has(key)) continue;
      seen.add(key);
      if (++count > INVENTORY_RECORD_LIMIT) throw tooLarge(source);
      const before = known.get(key);
      const isNew = !before && !elsewhere.has(key);
      if (isNew || (before && before.ttl !== record.ttl)) {
        changedNames.add(record.name);
        if (!baseline)
          changes.push({ domainId, at, change: before ? 'changed' : 'added', source, ...record });
      }
      batch.push({ domainId, source, firstSeenAt: at, lastSeenAt: at, ...record });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    const gone = [...known].filter(([key]) => !seen.has(key));
    let removedCount = 0;
    for (let i = 0; i < gone.length; i += BATCH) {
      const ids = gone.slice(i, i + BATCH).map(([, row]) => row.id);
      const removed = await txDb
        .delete(zoneRecords)
        .where(and(eq(zoneRecords.domainId, domainId), inArray(zoneRecords.id, ids)))
        .returning();
      const fromDomain = removed.filter((row) => !elsewhere.has(keyOf(row)));
      removedCount += fromDomain.length;
      changes.push(
        ...fromDomain.map((row) => ({
          domainId,
          at,
          change: 'removed',
          source,
          name: row.name,
          type: row.type,
          data: row.data,
          ttl: row.ttl,
        })),
      );
    }
    for (let i = 0; i < changes.length; i += BATCH) {
      await txDb.insert(zoneRecordChanges).values(changes.slice(i, i + BATCH));
    }
    const [merged] = await txDb
      .select({ n: countDistinct(sql`(${zoneRecords.name}, ${zoneRecords.type}, ${zoneRecords.data})`) })
      .from(zoneRecords)
      .where(eq(zoneRecords.domainId, domainId));
    await txDb
      .update(domains)
      .set({ inventorySource: source, inventoryReadAt: at, inventoryRecords: Number(merged?.n ?? 0) })
      .where(eq(domains.id, domainId));
    return {
      records: count,
      added: changes.filter((c) => c.change === 'added').length,
      changed: changes.filter((c) => c.change === 'changed').length,
      removed: removedCount,
      changedNames: [...changedNames],
      baseline,
    };
  });
}

/** The source of an inventory uploaded as a BIND file (the others are providers' ids). */
export const ZONE_FILE_SOURCE = 'zone-file';

/** Changes shown with an inventory, newest first. */
const HISTORY_SHOWN = 500;

/** A record of the inventory once, however many sources hold it: the columns of a grouped read. */
const MERGED = {
  name: zoneRecords.name,
  type: zoneRecords.type,
  data: zoneRecords.data,
  ttl: sql<number>`min(${zoneRecords.ttl})`.mapWith(Number),
};

/** Records after `cursor` in (name, type, data) order, which the unique index reads in order. */
const afterRecord = (cursor: { name: string; type: string; data: string } | undefined) =>
  cursor
    ? sql`(${zoneRecords.name}, ${zoneRecords.type}, ${zoneRecords.data}) > (${cursor.name}, ${cursor.type}, ${cursor.data})`
    : undefined;

/** One page of an inventory: how many records, after which one, and which (GET /api/domains/{id}/records). */
export interface InventoryPage {
  limit: number;
  cursor?: InventoryCursor;
  /** Part of the name, any case. */
  q?: string;
  type?: string;
}

/** LIKE's wildcards in `text` taken literally (backslash is LIKE's escape character). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /api/domains/{id}/records: a page of the inventory in (name, type, data) order, which the
 * unique index zone_records_record reads in order, so a page costs the same at its end as at its
 * start; with where it comes from, its history, and the number of records the filter keeps.
 */
export async function inventoryView(
  db: Db,
  ctx: WorkspaceContext,
  domainId: string,
  page: InventoryPage,
): Promise<InventoryView> {
  authorize(ctx, 'read');
  const domain = await ownDomain(db, ctx.workspace.id, domainId);
  const filter = and(
    eq(zoneRecords.domainId, domain.id),
    page.q ? sql`${zoneRecords.name} ilike ${`%${likeLiteral(page.q)}%`}` : undefined,
    page.type ? eq(zoneRecords.type, page.type) : undefined,
  );
  // A record that several sources hold is one record of the inventory, listing its sources.
  const rows = await db
    .select({
      ...MERGED,
      sources: sql<string[]>`array_agg(${zoneRecords.source} order by ${zoneRecords.source})`,
      firstSeenAt: sql<Date>`min(${zoneRecords.firstSeenAt})`.mapWith(zoneRecords.firstSeenAt),
      lastSeenAt: sql<Date>`max(${zoneRecords.lastSeenAt})`.mapWith(zoneRecords.lastSeenAt),
    })
    .from(zoneRecords)
    .where(and(filter, afterRecord(page.cursor)))
    .groupBy(zoneRecords.name, zoneRecords.type, zoneRecords.data)
    .orderBy(zoneRecords.name, zoneRecords.type, zoneRecords.data)
    .limit(page.limit + 1);
  const records = rows.slice(0, page.limit);
  const last = records.at(-1);
  const [total] = await db
    .select({ n: countDistinct(sql`(${zoneRecords.name}, ${zoneRecords.type}, ${zoneRecords.data})`) })
    .from(zoneRecords)
    .where(filter);
  const history = await db
    .select()
    .from(zoneRecordChanges)
    .where(eq(zoneRecordChanges.domainId, domain.id))
    .orderBy(desc(zoneRecordChanges.at), zoneRecordChanges.name)
    .limit(HISTORY_SHOWN);
  return {
    source: domain.inventorySource as InventoryView['source'],
    readAt: domain.inventoryReadAt?.toISOString() ?? null,
    records: records.map((r) => ({
      name: r.name,
      type: r.type,
      ttl: r.ttl,
      data: r.data,
      source: r.sources[0] ?? '',
      sources: r.sources,
      firstSeenAt: r.firstSeenAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
    })),
    nextCursor: rows.length > page.limit && last ? encodeInventoryCursor(last) : null,
    total: Number(total?.n ?? 0),
    history: history.map((h) => ({
      at: h.at.toISOString(),
      change: h.change as InventoryView['history'][number]['change'],
      name: h.name,
      type: h.type,
      ttl: h.ttl,
      data: h.data,
      source: h.source,
    })),
  };
}

/** Inventory records read per query while a scan streams them. */
const STREAM_PAGE = 1000;

/**
 * A domain's inventory as the engine reads zone records: a page at a time, owner by owner, never
 * the whole zone in memory. `names`: only those owners (a scan of records that changed).
 */
export async function* inventoryRecords(
  db: Db,
  domainId: string,
  names?: readonly string[],
): AsyncGenerator<ZoneRecord> {
  let after: { name: string; type: string; data: string } | undefined;
  for (;;) {
    const rows = await db
      .select(MERGED)
      .from(zoneRecords)
      .where(
        and(
          eq(zoneRecords.domainId, domainId),
          names ? inArray(zoneRecords.name, [...names]) : undefined,
          afterRecord(after),
        ),
      )
      .groupBy(zoneRecords.name, zoneRecords.type, zoneRecords.data)
      .orderBy(zoneRecords.name, zoneRecords.type, zoneRecords.data)
      .limit(STREAM_PAGE);
    for (const record of rows) yield record;
    const last = rows.at(-1);
    if (!last || rows.length < STREAM_PAGE) return;
    after = last;
  }
}
