import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { alertChanges, alertMessage, isEmpty } from '../../core/alerts/alert-message.ts';
import { UNSUBSCRIBE_SECRET, unsubscribeUrl } from '../../core/alerts/unsubscribe-link.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { appSecret } from '../../core/mail/secrets.ts';
import type { Db } from '../../db/client.ts';
import { domains, findings, scans, users, workspaceMembers } from '../../db/schema.ts';
import { FINDING_STATUSES, type FindingRef } from '../../model/contract.ts';

export interface AlertDeps {
  mailer: Mailer;
  /** Where links in e-mails point: PUBLIC_URL, else the server's own address. */
  publicUrl: string;
}

type AlertOutcome = 'sent' | 'no-change' | 'unsubscribed' | 'no-address' | 'already-sent';

/**
 * A completed scan, its domain, the addresses of its workspace's members (everyone in a team
 * workspace hears of its changes), and what of its changes deserves an alert.
 */
export async function scanAlert(db: Db, scanId: string) {
  const [row] = await db
    .select({ scan: scans, domain: domains })
    .from(scans)
    .innerJoin(domains, eq(domains.id, scans.domainId))
    .where(eq(scans.id, scanId));
  if (!row?.scan.changes) return undefined;
  const members = await db
    .select({ email: users.email })
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
  const recipients = members.map((m) => m.email as string);
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
 * resolved, leaving out findings the user accepted as a risk; once per scan even when retried.
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
  // Claimed before sending: two deliveries of this job never send two e-mails.
  const [claimed] = await db
    .update(scans)
    .set({ alertedAt: new Date() })
    .where(and(eq(scans.id, scanId), isNull(scans.alertedAt)))
    .returning({ id: scans.id });
  if (!claimed) return 'already-sent';
  try {
    await deps.mailer.send(
      alertMessage({
        // One message to every member: they all see each other in the workspace anyway, and one
        // claim per scan keeps a retried job from mailing anyone twice.
        to: row.recipients.join(', '),
        domain: row.scan.domain,
        scanId,
        workspaceId: row.scan.workspaceId,
        alert,
        findings: row.scan.findings,
        publicUrl: deps.publicUrl,
        unsubscribeUrl: unsubscribeUrl(deps.publicUrl, secret, row.domain.id),
      }),
    );
  } catch (error) {
    // Not sent: let the job's retry try again.
    await db.update(scans).set({ alertedAt: null }).where(eq(scans.id, scanId));
    throw error;
  }
  logger.info({ scanId, domain: row.scan.domain }, 'change alert sent');
  return 'sent';
}
