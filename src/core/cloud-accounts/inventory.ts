import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  CloudError,
  type CloudId,
  type CloudSnapshot,
  canonicalAddress,
} from '../../connectors/cloud/provider.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts, cloudInventory } from '../../db/schema.ts';
import type { CloudInventoryView } from '../../model/contract.ts';
import { type CloudInventoryCursor, encodeCloudInventoryCursor } from '../../model/schemas.ts';
import type { CloudInventory } from '../../scanner/types.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { ownRow } from '../connections/own.ts';
import { CLOUD_INVENTORY_LIMIT } from '../limits.ts';

/** Rows written per statement while a read is stored. */
const BATCH = 1000;

type Row = typeof cloudInventory.$inferInsert;

/**
 * Stores one complete read: every address and resource in it is upserted with `at` as its last
 * sighting (and its first, when new). Nothing is deleted: what the account let go keeps its last
 * sighting, which is how a record pointing at it later is known as once-ours. One transaction, so
 * a read beyond CLOUD_INVENTORY_LIMIT changes nothing.
 */
export async function storeSnapshot(
  db: Db,
  cloudAccountId: string,
  cloud: CloudId,
  snapshot: CloudSnapshot,
  at: Date,
): Promise<{ addresses: number; resources: number }> {
  const total = snapshot.addresses.length + snapshot.resources.length;
  if (total > CLOUD_INVENTORY_LIMIT) {
    throw new CloudError(
      cloud,
      'malformed',
      `The account holds more than ${CLOUD_INVENTORY_LIMIT.toLocaleString('en-US')} addresses and resources, the most DangleWatch keeps for one account: the last good inventory is kept`,
    );
  }
  const rows: Row[] = [
    ...snapshot.addresses.map((a) => ({
      cloudAccountId,
      kind: 'address',
      type: a.type,
      value: canonicalAddress(a.address),
      name: a.name,
      region: a.region ?? null,
      firstSeenAt: at,
      lastSeenAt: at,
    })),
    ...snapshot.resources.map((r) => ({
      cloudAccountId,
      kind: 'resource',
      type: r.type,
      value: r.host.toLowerCase().replace(/\.$/, ''),
      name: r.name,
      region: r.region ?? null,
      firstSeenAt: at,
      lastSeenAt: at,
    })),
  ];
  // One row per (kind, value) within a statement: Postgres refuses to upsert a row twice at once.
  const unique = [...new Map(rows.map((r) => [`${r.kind} ${r.value}`, r])).values()];
  await db.transaction(async (tx) => {
    for (let i = 0; i < unique.length; i += BATCH) {
      await tx
        .insert(cloudInventory)
        .values(unique.slice(i, i + BATCH))
        .onConflictDoUpdate({
          target: [cloudInventory.cloudAccountId, cloudInventory.kind, cloudInventory.value],
          set: {
            type: sql`excluded.type`,
            name: sql`excluded.name`,
            region: sql`excluded.region`,
            lastSeenAt: sql`excluded.last_seen_at`,
          },
        });
    }
  });
  return {
    addresses: unique.filter((r) => r.kind === 'address').length,
    resources: unique.filter((r) => r.kind === 'resource').length,
  };
}

/** What each account's inventory remembers, by kind. */
export async function inventoryCounts(
  db: Db,
  ids: string[],
): Promise<Map<string, { addresses: number; resources: number }>> {
  const counts = new Map<string, { addresses: number; resources: number }>();
  for (const id of ids) counts.set(id, { addresses: 0, resources: 0 });
  if (ids.length === 0) return counts;
  const rows = await db
    .select({ id: cloudInventory.cloudAccountId, kind: cloudInventory.kind, n: count() })
    .from(cloudInventory)
    .where(inArray(cloudInventory.cloudAccountId, ids))
    .groupBy(cloudInventory.cloudAccountId, cloudInventory.kind);
  for (const row of rows) {
    const entry = counts.get(row.id);
    if (!entry) continue;
    if (row.kind === 'address') entry.addresses = Number(row.n);
    else entry.resources = Number(row.n);
  }
  return counts;
}

export interface CloudInventoryPage {
  limit: number;
  cursor?: CloudInventoryCursor;
  q?: string;
  type?: string;
}

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /api/cloud-accounts/{id}/inventory: a page in (kind, value) order, which the unique index
 * reads in order, with whether the last read still saw each item.
 */
export async function cloudInventoryView(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  page: CloudInventoryPage,
): Promise<CloudInventoryView> {
  authorize(ctx, 'read');
  const account = await ownRow(db, 'cloud', ctx.workspace.id, id);
  const filter = and(
    eq(cloudInventory.cloudAccountId, account.id),
    page.q
      ? sql`(${cloudInventory.value} ilike ${`%${likeLiteral(page.q)}%`} or ${cloudInventory.name} ilike ${`%${likeLiteral(page.q)}%`})`
      : undefined,
    page.type ? eq(cloudInventory.type, page.type) : undefined,
  );
  const after = page.cursor
    ? sql`(${cloudInventory.kind}, ${cloudInventory.value}) > (${page.cursor.kind}, ${page.cursor.value})`
    : undefined;
  const rows = await db
    .select()
    .from(cloudInventory)
    .where(and(filter, after))
    .orderBy(cloudInventory.kind, cloudInventory.value)
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  const [total] = await db.select({ n: count() }).from(cloudInventory).where(filter);
  const readAt = account.lastSyncAt;
  return {
    readAt: readAt?.toISOString() ?? null,
    items: items.map((row) => ({
      kind: row.kind as 'address' | 'resource',
      type: row.type,
      value: row.value,
      name: row.name,
      region: row.region,
      firstSeenAt: row.firstSeenAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      held: readAt !== null && row.lastSeenAt.getTime() >= readAt.getTime(),
    })),
    nextCursor: rows.length > page.limit && last ? encodeCloudInventoryCursor(last) : null,
    total: Number(total?.n ?? 0),
  };
}

/**
 * A workspace's cloud inventories as the engine reads them: plain data, each read account with the
 * addresses and resources it ever held and when it last saw each. Accounts never read are left
 * out: without a read there is nothing to compare a record with.
 */
export async function cloudInventoryForScan(db: Db, workspaceId: string): Promise<CloudInventory> {
  const accounts = await db
    .select()
    .from(cloudAccounts)
    .where(and(eq(cloudAccounts.workspaceId, workspaceId), isNotNull(cloudAccounts.lastSyncAt)));
  if (accounts.length === 0) return { accounts: [] };
  const items = await db
    .select({
      account: cloudInventory.cloudAccountId,
      kind: cloudInventory.kind,
      type: cloudInventory.type,
      value: cloudInventory.value,
      name: cloudInventory.name,
      lastSeenAt: cloudInventory.lastSeenAt,
    })
    .from(cloudInventory)
    .where(
      inArray(
        cloudInventory.cloudAccountId,
        accounts.map((a) => a.id),
      ),
    );
  return {
    accounts: accounts.map((a) => ({
      label: a.label,
      cloud: a.provider as CloudId,
      accounts: a.accounts,
      graceHours: a.graceHours,
      firstSyncAt: (a.firstSyncAt ?? a.lastSyncAt ?? a.createdAt).toISOString(),
      lastSyncAt: (a.lastSyncAt ?? a.createdAt).toISOString(),
      items: items
        .filter((i) => i.account === a.id)
        .map((i) => ({
          kind: i.kind as 'address' | 'resource',
          type: i.type,
          value: i.value,
          name: i.name,
          lastSeenAt: i.lastSeenAt.toISOString(),
        })),
    })),
  };
}
