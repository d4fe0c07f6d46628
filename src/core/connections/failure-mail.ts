import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { CLOUD_NAMES, type CloudId } from '../../connectors/cloud/provider.ts';
import { type Db, queryRows } from '../../db/client.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { connectionManagerAddresses } from '../alerts/recipients.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { escapeHtml } from '../mail/html.ts';
import { KINDS } from './kinds.ts';

/** A connection whose reads have failed this long gets its managers one e-mail (once per failing spell). */
export const SYNC_FAILURE_MAIL_MS = 3 * 24 * 60 * 60_000;

/** The kinds read on a schedule, whose repeated failures are told. */
export type SyncedKind = 'dns' | 'cloud';

const WORDS: Record<
  SyncedKind,
  {
    provider: (id: string) => string;
    subject: (provider: string) => string;
    cannot: (provider: string, label: string) => string;
    meanwhile: string;
    where: string;
  }
> = {
  dns: {
    provider: (id) => id,
    subject: (provider) => `DangleWatch cannot read your ${provider} zones`,
    cannot: (provider, label) => `read the zones of your ${provider} connection "${label}"`,
    meanwhile:
      'Until it can read them again, new or changed records in those zones are not scanned when they change (the last zone read is still scanned every day).',
    where: 'Settings → DNS connections',
  },
  cloud: {
    provider: (id) => CLOUD_NAMES[id as CloudId] ?? id,
    subject: (provider) => `DangleWatch cannot read your ${provider} account`,
    cannot: (provider, label) => `read your ${provider} account "${label}"`,
    meanwhile:
      'Until it can read the account again, an address or resource released since then is not noticed: records still pointing at it are not found.',
    where: 'Settings → Cloud',
  },
};

interface FailingRow {
  workspace_id: string;
  label: string;
  provider: string;
  sync_error: string | null;
  sync_error_detail: string | null;
  sync_failing_since: string | Date | null;
  failure_mailed_at: string | Date | null;
}

/**
 * Tells those who may manage a connection of `kind` that it has not been read for
 * SYNC_FAILURE_MAIL_MS, once per failing spell (the row remembers the mail until a read succeeds
 * again), in the provider's own words.
 */
export async function mailIfFailingLong(
  db: Db,
  kind: SyncedKind,
  id: string,
  now: Date,
  alerts: AlertDeps | undefined,
  logger: Logger,
): Promise<void> {
  const k = KINDS[kind];
  const [row] = await queryRows<FailingRow>(
    db,
    sql`select workspace_id, label, provider, sync_error, sync_error_detail, sync_failing_since, failure_mailed_at
      from ${k.table} where ${k.id} = ${id}`,
  );
  const since = row?.sync_failing_since ? new Date(row.sync_failing_since) : undefined;
  if (!alerts || !row || !since || row.failure_mailed_at) return;
  if (now.getTime() - since.getTime() < SYNC_FAILURE_MAIL_MS) return;
  const managers = await connectionManagerAddresses(db, row.workspace_id, k.permission);
  if (managers.length === 0) return;
  const words = WORDS[kind];
  const provider = words.provider(row.provider);
  const settings = dashboardLink(alerts.publicUrl, '/dashboard/settings', { tab: k.tab }, row.workspace_id);
  const text = [
    `DangleWatch has not been able to ${words.cannot(provider, row.label)} since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `${row.sync_error ?? 'It did not answer'}.`,
    ...(row.sync_error_detail ? [`${provider} said: ${row.sync_error_detail}`] : []),
    '',
    words.meanwhile,
    `Check or replace the credential in ${words.where}: ${settings}`,
  ].join('\n');
  await alerts.mailer.send({
    to: managers.join(', '),
    subject: words.subject(provider),
    text,
    html: text
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join(''),
  });
  await db.execute(
    sql`update ${k.table} set failure_mailed_at = ${now.toISOString()}::timestamptz where ${k.id} = ${id}`,
  );
  logger.info({ kind, id }, 'told the managers that reads keep failing');
}
