import { and, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import { EXPIRING_SOON_DAYS } from '../../model/acceptance.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { acceptancesExpiringSoon } from '../findings/expiring-soon.ts';
import type { Mailer } from '../mail/mailer.ts';
import { alertRecipients } from './recipients.ts';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/**
 * The weekly summary: to each workspace whose accepted risks end within the next 7 days, the list of
 * them (name, who accepted it, why, until when), so nobody is surprised when a finding comes back.
 * A workspace with none gets nothing. Answers how many workspaces were told.
 */
export async function sendWeeklySummaries(
  db: Db,
  deps: { mailer: Mailer; publicUrl: string },
  now: Date,
  logger: Logger,
): Promise<number> {
  const horizon = new Date(now.getTime() + EXPIRING_SOON_DAYS * 24 * 60 * 60 * 1000);
  const due = await db
    .selectDistinct({ workspaceId: findings.workspaceId })
    .from(findings)
    .where(
      and(
        isNotNull(findings.acceptedAt),
        isNull(findings.resolvedAt),
        gt(findings.acceptedUntil, now),
        lte(findings.acceptedUntil, horizon),
      ),
    );
  let told = 0;
  for (const { workspaceId } of due) {
    const ending = await acceptancesExpiringSoon(db, workspaceId, now);
    if (ending.length === 0) continue;
    const link = dashboardLink(deps.publicUrl, '/dashboard', { section: 'scans' }, workspaceId);
    const lines = ending.map(
      (a) =>
        `${a.subdomain} (${a.domain}): accepted by ${a.by ?? 'a former member'} until ${a.until}: “${a.note ?? ''}”`,
    );
    const subject = `DangleWatch weekly: ${ending.length} accepted ${ending.length === 1 ? 'risk ends' : 'risks end'} within ${EXPIRING_SOON_DAYS} days`;
    for (const recipient of await alertRecipients(db, workspaceId)) {
      await deps.mailer.send({
        to: recipient.email,
        subject,
        text: `Accepted risks ending within ${EXPIRING_SOON_DAYS} days; each is open again, and alerts, when its acceptance ends:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n\n${link}\n`,
        html: `<p>Accepted risks ending within ${EXPIRING_SOON_DAYS} days; each is open again, and alerts, when its acceptance ends:</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p><a href="${escapeHtml(link)}">Open the dashboard</a></p>`,
      });
    }
    told += 1;
  }
  if (told) logger.info({ workspaces: told }, 'weekly summaries sent');
  return told;
}
