import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { alertChanges, alertMessage, isEmpty } from '../../core/alerts/alert-message.ts';
import { UNSUBSCRIBE_SECRET, unsubscribeUrl } from '../../core/alerts/unsubscribe-link.ts';
import { NO_OPEN_FINDINGS, openCount, openFindingCounts } from '../../core/findings/open-state.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { appSecret } from '../../core/mail/secrets.ts';
import type { Db } from '../../db/client.ts';
import {
  alertMails,
  domains,
  findings,
  scans,
  users,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { FINDING_STATUSES, type FindingRef } from '../../model/contract.ts';

export interface AlertDeps {
  mailer: Mailer;
  /** Where links in e-mails point: PUBLIC_URL, else the server's own address. */
  publicUrl: string;
}

type AlertOutcome = 'sent' | 'no-change' | 'unsubscribed' | 'no-address' | 'already-sent';

/**
 * A completed scan, its domain and workspace, the members to tell (everyone in a team workspace
 * who has not turned its alerts off), and what of its changes deserves an alert.
 */
export async function scanAlert(db: Db, scanId: string) {
  const [row] = await db
    .select({
      scan: scans,
      domain: domains,
      workspace: { name: workspaces.name, personal: workspaces.personal },
    })
    .from(scans)
    .innerJoin(domains, eq(domains.id, scans.domainId))
    .innerJoin(workspaces, eq(workspaces.id, scans.workspaceId))
    .where(eq(scans.id, scanId));
  if (!row?.scan.changes) return undefined;
  const members = await db
    .select({ userId: workspaceMembers.userId, email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, row.scan.workspaceId),
        eq(workspaceMembers.alertsEmail, true),
        isNotNull(users.email),
      ),
    )
    .orderBy(asc(workspaceMembers.joinedAt));
  const recipients = members.map((m) => ({ userId: m.userId, email: m.email as string }));
  const accepted = await db
    .select({ latest: findings.latest })
    .from(findings)
    .where(
      and(
        eq(findings.workspaceId, row.scan.workspaceId),
        eq(findings.domain, row.scan.domain),
        isNotNull(findings.acceptedAt),
      ),
    );
  const acceptedPlaces = new Set(
    accepted.map(({ latest }) => `${latest.subdomain} ${latest.recordType} ${latest.target}`),
  );
  // Left out: accepted risks, and statuses below the domain's 'Alert on' setting.
  const least = FINDING_STATUSES.indexOf(row.domain.alertMinStatus as FindingRef['status']);
  const alert = alertChanges(
    row.scan.changes,
    (f) =>
      acceptedPlaces.has(`${f.subdomain} ${f.recordType} ${f.target}`) ||
      FINDING_STATUSES.indexOf(f.status) < least,
  );
  return { ...row, recipients, alert };
}

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
  const found = await scanAlert(db, scanId);
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
