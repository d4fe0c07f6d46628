import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { CLOUD_NAMES, type CloudId } from '../../connectors/cloud/provider.ts';
import type { Db } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { connectionManagerAddresses } from '../alerts/recipients.ts';
import type { AlertDeps } from '../alerts/send-scan-alert.ts';
import { SYNC_FAILURE_MAIL_MS } from '../dns-connections/failure-mail.ts';
import { escapeHtml } from '../mail/html.ts';

/**
 * Tells those who may manage a cloud account that it has not been read for SYNC_FAILURE_MAIL_MS,
 * once per failing spell: until it is read again, addresses it releases are not seen released (and
 * those it held at its last read are still taken as its own).
 */
export async function mailIfCloudFailingLong(
  db: Db,
  cloudAccountId: string,
  now: Date,
  alerts: AlertDeps | undefined,
  logger: Logger,
): Promise<void> {
  const [account] = await db.select().from(cloudAccounts).where(eq(cloudAccounts.id, cloudAccountId));
  const since = account?.syncFailingSince;
  if (!alerts || !account || !since || account.failureMailedAt) return;
  if (now.getTime() - since.getTime() < SYNC_FAILURE_MAIL_MS) return;
  const managers = await connectionManagerAddresses(db, account.workspaceId, 'cloud-accounts.manage');
  if (managers.length === 0) return;
  const cloud = CLOUD_NAMES[account.provider as CloudId] ?? account.provider;
  const settings = dashboardLink(
    alerts.publicUrl,
    '/dashboard/settings',
    { tab: 'cloud' },
    account.workspaceId,
  );
  const text = [
    `DangleWatch has not been able to read your ${cloud} account "${account.label}" since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `${cloud} said: ${account.syncError ?? 'no answer'}`,
    '',
    'Until it can read the account again, an address or resource released since then is not noticed: records still pointing at it are not found.',
    `Check or replace the credential in Settings → Cloud: ${settings}`,
  ].join('\n');
  await alerts.mailer.send({
    to: managers.join(', '),
    subject: `DangleWatch cannot read your ${cloud} account`,
    text,
    html: text
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join(''),
  });
  await db.update(cloudAccounts).set({ failureMailedAt: now }).where(eq(cloudAccounts.id, cloudAccountId));
  logger.info({ cloudAccountId }, 'told the managers that cloud reads keep failing');
}
