import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { dnsConnections } from '../../db/schema.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { connectionManagerAddresses } from '../alerts/recipients.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { escapeHtml } from '../mail/html.ts';

/** A connection failing this long gets its managers one e-mail (once per failing spell). */
export const SYNC_FAILURE_MAIL_MS = 3 * 24 * 60 * 60_000;

/**
 * Tells those who may manage a connection that its zones have not been read for
 * SYNC_FAILURE_MAIL_MS, once per failing spell (the connection remembers the mail until a read
 * succeeds again).
 */
export async function mailIfFailingLong(
  db: Db,
  connectionId: string,
  now: Date,
  alerts: AlertDeps | undefined,
  logger: Logger,
): Promise<void> {
  const [connection] = await db.select().from(dnsConnections).where(eq(dnsConnections.id, connectionId));
  const since = connection?.syncFailingSince;
  if (!alerts || !connection || !since || connection.failureMailedAt) return;
  if (now.getTime() - since.getTime() < SYNC_FAILURE_MAIL_MS) return;
  const managers = await connectionManagerAddresses(db, connection.workspaceId);
  if (managers.length === 0) return;
  const settings = dashboardLink(
    alerts.publicUrl,
    '/dashboard/settings',
    { tab: 'dns' },
    connection.workspaceId,
  );
  const { label, provider, syncError } = connection;
  const text = [
    `DangleWatch has not been able to read the zones of your ${provider} connection "${label}" since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `${provider} said: ${syncError ?? 'no answer'}`,
    '',
    'Until it can read them again, new or changed records in those zones are not scanned when they change (the last zone read is still scanned every day).',
    `Check or replace the credential in Settings → DNS connections: ${settings}`,
  ].join('\n');
  await alerts.mailer.send({
    to: managers.join(', '),
    subject: `DangleWatch cannot read your ${provider} zones`,
    text,
    html: text
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join(''),
  });
  await db.update(dnsConnections).set({ failureMailedAt: now }).where(eq(dnsConnections.id, connectionId));
  logger.info({ connectionId }, 'told the managers that zone syncs keep failing');
}
