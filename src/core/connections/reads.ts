import { and, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import { ConnectorError } from '../../connectors/http/error.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts, dnsConnections } from '../../db/schema.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { ServiceError } from '../errors.ts';
import { assertLive } from './answerable.ts';
import { requireKey } from './credentials.ts';
import { mailIfFailingLong, type SyncedKind } from './failure-mail.ts';
import { KINDS, type RowOf } from './kinds.ts';
import { ownRow } from './own.ts';
import type { SecretsKey } from './secrets.ts';

const NOT_RUNNING: Record<SyncedKind, string> = {
  dns: 'Zone syncs are not running on this server',
  cloud: 'Cloud syncs are not running on this server',
};

const LAST_READ: Record<SyncedKind, PgColumn> = {
  dns: dnsConnections.lastSyncAt,
  cloud: cloudAccounts.lastSyncAt,
};

/** Rows of `kind` due for their scheduled read: live, and not read for `minutes` (or never). */
export function dueForRead(kind: SyncedKind, now: Date, minutes: number): SQL | undefined {
  const cutoff = new Date(now.getTime() - minutes * 60_000);
  const last = LAST_READ[kind];
  return and(isNull(KINDS[kind].disabledAt), or(isNull(last), lt(last, cutoff)));
}

/** What a read that succeeded clears: the failure, its start, and the mail told of it. */
export const readSucceeded = (now: Date) => ({
  lastSyncAt: now,
  syncError: null,
  syncErrorDetail: null,
  syncFailingSince: null,
  failureMailedAt: null,
});

/**
 * A read that failed: its sentence and the provider's own words are kept for the card, and the
 * failing spell's start (the first failure's time, kept while failures go on) for the mail after
 * days of it.
 */
export async function markReadFailed(
  db: Db,
  kind: SyncedKind,
  row: { id: string; syncFailingSince: Date | null },
  error: ConnectorError,
  now: Date,
): Promise<void> {
  const k = KINDS[kind];
  await db.execute(
    sql`update ${k.table} set sync_error = ${error.message}, sync_error_detail = ${error.detail ?? null},
      sync_failing_since = ${(row.syncFailingSince ?? now).toISOString()}::timestamptz
      where ${k.id} = ${row.id}`,
  );
}

/**
 * One scheduled (or asked-for) read of a connection: none while it is disabled or gone, or without
 * the sealing key (said in the log). A provider's failure is logged and left on the row for its
 * managers to see, and mailed to them once it has lasted days; the next due read tries again.
 */
export async function runRead<R extends { id: string; provider: string; disabledAt: Date | null }, T>(
  db: Db,
  kind: SyncedKind,
  row: R | undefined,
  deps: { secrets: SecretsKey; logger: Logger; now: Date; alerts: AlertDeps | undefined },
  read: (key: Buffer, row: R) => Promise<T>,
  isProviderError: (error: unknown) => error is Error,
): Promise<T | undefined> {
  const { secrets, logger, now, alerts } = deps;
  if (!row || row.disabledAt) return undefined;
  if (!secrets.key) {
    logger.warn({ kind, id: row.id }, secrets.reason);
    return undefined;
  }
  try {
    return await read(secrets.key, row);
  } catch (error) {
    if (!isProviderError(error)) throw error;
    logger.warn(
      { kind, id: row.id, provider: row.provider, reason: fullReason(error) },
      `${kind} sync failed`,
    );
    await mailIfFailingLong(db, kind, row.id, now, alerts, logger);
    return undefined;
  }
}

/** Where an asked-for read goes: `enqueue` (none on a server that runs no syncs) after `counted`. */
export interface ReadQueue {
  enqueue: ((id: string) => Promise<void>) | undefined;
  counted: () => Promise<void>;
}

/**
 * Asks for a read of one of the workspace's live connections now: `sync.enqueue` queues it for the
 * worker (none on a server that runs no syncs), after `sync.counted` has counted it against the
 * caller's rate. Answers the row as it stands until then.
 */
export async function requestRead<K extends SyncedKind>(
  db: Db,
  kind: K,
  where: { workspaceId: string; id: string },
  secrets: SecretsKey | undefined,
  sync: ReadQueue,
): Promise<RowOf[K]> {
  const row = await ownRow(db, kind, where.workspaceId, where.id);
  assertLive(kind, row);
  requireKey(secrets, kind);
  if (!sync.enqueue) {
    throw new ServiceError('unavailable', 'SYNC_UNAVAILABLE', NOT_RUNNING[kind]);
  }
  await sync.counted();
  await sync.enqueue(row.id);
  return row;
}

const fullReason = (error: Error) => (error instanceof ConnectorError ? error.full : error.message);
