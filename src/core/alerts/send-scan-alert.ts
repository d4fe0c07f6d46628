import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { alertMails, scans } from '../../db/schema.ts';
import { NO_OPEN_FINDINGS, openCount } from '../../model/open-findings.ts';
import { openFindingCounts } from '../findings/open-state.ts';
import type { Mailer } from '../mail/mailer.ts';
import { appSecret } from '../mail/secrets.ts';
import { alertMessage, isEmpty } from './alert-message.ts';
import type { Reprove } from './proven.ts';
import { scanAlert } from './scan-alert.ts';
import { UNSUBSCRIBE_SECRET, unsubscribeUrl } from './unsubscribe-link.ts';

export interface AlertDeps {
  mailer: Mailer;
  /** Where links in e-mails point: PUBLIC_URL, else the server's own address. */
  publicUrl: string;
  /** Asks the provider again about a claimable finding whose proof is older than a day. */
  reprove?: Reprove;
}

type AlertOutcome = 'sent' | 'no-change' | 'unsubscribed' | 'no-address' | 'already-sent';

/**
 * The e-mail alert of one completed scan: sent only when something is new, got worse or was
 * resolved, leaving out findings the user accepted as a risk; once per scan and member even when
 * retried.
 */
export async function sendScanAlert(
  db: Db,
  scanId: string,
  deps: AlertDeps,
  logger: Logger,
): Promise<AlertOutcome> {
  const found = await scanAlert(db, scanId, deps.reprove);
  if (!found) return 'no-change';
  const { alert, ...row } = found;
  if (row.scan.alertedAt) return 'already-sent';
  if (!row.domain.alertsEmail) return 'unsubscribed';
  if (row.recipients.length === 0) return 'no-address';
  if (isEmpty(alert)) return 'no-change';
  const secret = await appSecret(db, UNSUBSCRIBE_SECRET);
  const openNow = openCount(
    (await openFindingCounts(db, row.scan.workspaceId, [row.scan.domain])).get(row.scan.domain) ??
      NO_OPEN_FINDINGS,
  );
  let sent = 0;
  // A message to each member, with a link that unsubscribes that member alone. Each is claimed
  // before it is sent: a retried job, or two at once, mails nobody twice.
  for (const recipient of row.recipients) {
    const [claimed] = await db
      .insert(alertMails)
      .values({ scanId, userId: recipient.userId })
      .onConflictDoNothing()
      .returning({ userId: alertMails.userId });
    if (!claimed) continue;
    try {
      await deps.mailer.send(
        alertMessage({
          to: recipient.email,
          domain: row.scan.domain,
          scanId,
          workspaceId: row.scan.workspaceId,
          alert,
          findings: row.scan.findings,
          openNow,
          publicUrl: deps.publicUrl,
          unsubscribeUrl: unsubscribeUrl(deps.publicUrl, secret, row.domain.id, recipient.userId),
          team: row.workspace.personal ? undefined : row.workspace.name,
        }),
      );
    } catch (error) {
      // Not sent: the job's retry sends it, and skips those already sent.
      await db
        .delete(alertMails)
        .where(and(eq(alertMails.scanId, scanId), eq(alertMails.userId, recipient.userId)));
      throw error;
    }
    sent++;
  }
  await db.update(scans).set({ alertedAt: new Date() }).where(eq(scans.id, scanId));
  if (sent === 0) return 'already-sent';
  logger.info({ scanId, domain: row.scan.domain, recipients: sent }, 'change alert sent');
  return 'sent';
}
