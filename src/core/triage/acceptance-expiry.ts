import { and, asc, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Db, inTransaction } from '../../db/client.ts';
import { domains, findings, type LapsedAcceptance, webhookDeliveries, webhooks } from '../../db/schema.ts';
import { lapsedSentence } from '../../model/acceptance.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { alertRecipients } from '../alerts/recipients.ts';
import { findingKey } from '../findings/key.ts';
import { queueTicketSync } from '../integrations/tickets.ts';
import type { Mailer } from '../mail/mailer.ts';

/** Open findings whose acceptance has ended by `now`: its date passed, or it has none (counts as ended). */
const ended = (now: Date) =>
  and(
    isNotNull(findings.acceptedAt),
    isNull(findings.resolvedAt),
    eq(findings.acceptedUntilRecordChanges, false),
    or(isNull(findings.acceptedUntil), lte(findings.acceptedUntil, now)),
  );

/**
 * Ends the acceptances whose expiry has come (the job every minute, and every scan of a domain for
 * its own): each finding is open again, its ending is kept for the one alert that tells it
 * (sendLapsedAcceptanceAlerts), and its tickets are filed again. Rows are taken with SKIP LOCKED:
 * two workers never end the same acceptance twice.
 */
export async function expireAcceptances(
  db: Db,
  now: Date,
  scope?: { workspaceId: string; domain: string },
): Promise<number> {
  const lapsed = await inTransaction(db, async (tx) => {
    const rows = await tx
      .select({
        id: findings.id,
        workspaceId: findings.workspaceId,
        by: findings.acceptedBy,
        until: findings.acceptedUntil,
      })
      .from(findings)
      .where(
        and(
          ended(now),
          scope
            ? and(eq(findings.workspaceId, scope.workspaceId), eq(findings.domain, scope.domain))
            : undefined,
        ),
      )
      .limit(1000)
      .for('update', { skipLocked: true });
    for (const row of rows) {
      const notice: LapsedAcceptance = {
        by: row.by,
        until: row.until?.toISOString() ?? null,
        at: now.toISOString(),
      };
      await tx
        .update(findings)
        .set({
          acceptedAt: null,
          acceptedNote: null,
          acceptedBy: null,
          acceptedByUserId: null,
          acceptedUntil: null,
          lapsedAcceptance: notice,
          lapsedAlertedAt: null,
        })
        .where(eq(findings.id, row.id));
    }
    return rows.map((row) => ({ ...row, notice: { by: row.by, until: row.until?.toISOString() ?? null } }));
  });
  const byWorkspace = new Map<string, typeof lapsed>();
  for (const row of lapsed)
    byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row]);
  for (const [workspaceId, rows] of byWorkspace) {
    const reasons = new Map(
      rows.map((r) => [
        r.id,
        capitalize(`${lapsedSentence(r.notice.by, r.notice.until, now.toISOString())}.`),
      ]),
    );
    await queueTicketSync(
      db,
      workspaceId,
      rows.map((r) => r.id),
      { now, reasons },
    );
  }
  return lapsed.length;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The ended acceptances not told yet, oldest first: each alerted once, by whoever takes it. */
export async function sendLapsedAcceptanceAlerts(
  db: Db,
  deps: {
    mailer: Mailer;
    publicUrl: string;
    /** Queues a webhook delivery (its retries are the queue's); without it, only e-mail tells. */
    enqueueWebhook?: (deliveryId: string, tenant: string) => Promise<void>;
  },
  logger: Logger,
): Promise<number> {
  const waiting = await db
    .select({ id: findings.id })
    .from(findings)
    .where(and(isNotNull(findings.lapsedAcceptance), isNull(findings.lapsedAlertedAt)))
    .orderBy(asc(findings.lastSeenAt))
    .limit(100);
  let told = 0;
  for (const { id } of waiting) {
    // Taken before it is sent: a second worker finds nothing left to tell.
    const row = await inTransaction(db, async (tx) => {
      const [taken] = await tx
        .select({
          workspaceId: findings.workspaceId,
          domain: findings.domain,
          subdomain: findings.subdomain,
          latest: findings.latest,
          notice: findings.lapsedAcceptance,
        })
        .from(findings)
        .where(
          and(eq(findings.id, id), isNotNull(findings.lapsedAcceptance), isNull(findings.lapsedAlertedAt)),
        )
        .for('update', { skipLocked: true });
      if (taken) await tx.update(findings).set({ lapsedAlertedAt: new Date() }).where(eq(findings.id, id));
      return taken;
    });
    if (!row?.notice) continue;
    const { notice } = row;
    const sentence = lapsedSentence(notice.by, notice.until, notice.at);
    const link = dashboardLink(deps.publicUrl, '/dashboard', { section: 'scans' }, row.workspaceId);
    // The domain's alert settings hold as for its scans' changes (both on unless turned off).
    const [settings] = await db
      .select({ email: domains.alertsEmail, webhooks: domains.alertsWebhook })
      .from(domains)
      .where(and(eq(domains.workspaceId, row.workspaceId), eq(domains.domain, row.domain)));
    if (settings?.webhooks !== false && deps.enqueueWebhook) {
      const hooks = await db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.workspaceId, row.workspaceId), isNull(webhooks.disabledAt)));
      const f = row.latest;
      const payload = {
        event: 'finding.acceptance_expired',
        domain: row.domain,
        text: `DangleWatch: ${f.subdomain} is open again: ${sentence}. ${link}`,
        finding: {
          subdomain: f.subdomain,
          recordType: f.recordType,
          target: f.target,
          service: f.service,
          status: f.status,
          key: findingKey(row.workspaceId, f),
        },
        acceptance: notice,
      };
      for (const hook of hooks) {
        const [delivery] = await db
          .insert(webhookDeliveries)
          .values({ webhookId: hook.id, kind: 'acceptance-expired', payload })
          .returning({ id: webhookDeliveries.id });
        if (delivery) await deps.enqueueWebhook(delivery.id, row.workspaceId);
      }
    }
    const recipients = settings?.email === false ? [] : await alertRecipients(db, row.workspaceId);
    try {
      for (const recipient of recipients) {
        await deps.mailer.send({
          to: recipient.email,
          subject: `DangleWatch: ${row.subdomain} is open again: ${sentence}`,
          text: `${capitalize(sentence)}.\n\n${row.subdomain} (${row.domain}) is an open finding again, and alerts as before.\n\n${link}\n`,
          html: `<p>${escapeHtml(capitalize(sentence))}.</p><p>${escapeHtml(row.subdomain)} (${escapeHtml(row.domain)}) is an open finding again, and alerts as before.</p><p><a href="${escapeHtml(link)}">Open the dashboard</a></p>`,
        });
      }
    } catch (error) {
      // Not told: put back, so the next run tells it.
      await db.update(findings).set({ lapsedAlertedAt: null }).where(eq(findings.id, id));
      throw error;
    }
    logger.info({ findingId: id, recipients: recipients.length }, 'ended acceptance alerted');
    told += 1;
  }
  return told;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
