import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, findings, scans, workspaces } from '../../db/schema.ts';
import { FINDING_STATUSES } from '../../model/contract.ts';
import { alertChanges } from './alert-message.ts';
import { provenAlert, type Reprove } from './proven.ts';
import { alertRecipients } from './recipients.ts';

/**
 * A completed scan, its domain and workspace, the members to tell (alertRecipients), and what of
 * its changes deserves an alert: left out are the risks the workspace accepted and the statuses
 * below the domain's 'Alert on' setting. A finding it would call claimable on a proof older than a
 * day is asked about again first (provenAlert).
 */
export async function scanAlert(db: Db, scanId: string, reprove?: Reprove) {
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
  const recipients = await alertRecipients(db, row.scan.workspaceId);
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
  const least = FINDING_STATUSES.indexOf(row.domain.alertMinStatus);
  const alert = alertChanges(
    row.scan.changes,
    (f) =>
      acceptedPlaces.has(`${f.subdomain} ${f.recordType} ${f.target}`) ||
      FINDING_STATUSES.indexOf(f.status) < least,
  );
  return { ...row, recipients, alert: await provenAlert(db, row.scan, alert, reprove) };
}
