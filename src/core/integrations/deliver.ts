import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { ConnectorError } from '../../connectors/http/error.ts';
import type { TicketItem } from '../../connectors/tracker/tracker.ts';
import type { Db } from '../../db/client.ts';
import { findings, integrationDeliveries, integrations, integrationTickets } from '../../db/schema.ts';
import type { IntegrationKind } from '../../model/integrations.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { openCredential } from '../connections/credentials.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import { type IntegrationUrls, targetOf } from './targets.ts';

/** Attempts per delivery: the first and four retries, spaced by the queue with a growing delay. */
export const INTEGRATION_ATTEMPTS = 5;

type Outcome = 'delivered' | 'retry' | 'failed' | 'gone';

export interface IntegrationDeliveryDeps {
  secrets: SecretsKey | undefined;
  urls: IntegrationUrls;
  /** Where the finding's link points (PUBLIC_URL). */
  publicUrl: string;
  logger: Logger;
}

/** A finding as a ticket's words, with its dashboard link carrying its key. */
function ticketItem(row: typeof findings.$inferSelect, key: string, publicUrl: string): TicketItem {
  const f = row.latest;
  return {
    key,
    title: `Dangling ${f.recordType} record: ${f.subdomain} → ${f.target} (${f.service})`,
    body: [
      `**${f.status}** (${f.risk} risk): ${f.explanation}`,
      `How to fix: ${f.remediation}`,
      `Evidence:\n${f.evidence.map((e) => `- ${e}`).join('\n')}`,
    ].join('\n\n'),
    status: f.status,
    subdomain: f.subdomain,
    domain: row.domain,
    service: f.service,
    target: f.target,
    link: dashboardLink(publicUrl, '/dashboard', { section: 'scans', finding: key }, row.workspaceId),
  };
}

/**
 * One attempt of one delivery: a test item, or a ticket brought to the state it should be in now
 * (read again here, so a delivery that waited does what is true now, not what was true when it was
 * queued). 'retry' asks the queue to try again later (429, 5xx, a timeout); a refusal fails at once.
 */
export async function deliverIntegration(
  db: Db,
  deliveryId: string,
  deps: IntegrationDeliveryDeps,
): Promise<Outcome> {
  const [row] = await db
    .select({ delivery: integrationDeliveries, integration: integrations })
    .from(integrationDeliveries)
    .innerJoin(integrations, eq(integrations.id, integrationDeliveries.integrationId))
    .where(eq(integrationDeliveries.id, deliveryId));
  if (row?.delivery.status !== 'pending') return 'gone';
  const { delivery, integration } = row;
  const attempt = delivery.attempts + 1;
  const record = (fields: { status?: string; error?: string | null }) =>
    db
      .update(integrationDeliveries)
      .set({ attempts: attempt, updatedAt: sql`now()`, ...fields })
      .where(eq(integrationDeliveries.id, deliveryId));
  const ticketWhere = delivery.findingKey
    ? and(
        eq(integrationTickets.integrationId, integration.id),
        eq(integrationTickets.findingKey, delivery.findingKey),
      )
    : undefined;
  // Nobody answers for where a disabled integration sends findings: it is told nothing more.
  if (integration.disabledAt) {
    await record({
      status: 'failed',
      error: `The integration was disabled: ${integration.disabledReason ?? ''}`,
    });
    return 'failed';
  }
  if (!deps.secrets?.key) {
    await record({ status: 'failed', error: 'Integrations are not set up on this server' });
    return 'failed';
  }
  try {
    const credentials = openCredential(deps.secrets.key, 'integration', {
      ...integration,
      service: integration.kind,
    });
    const target = targetOf(
      integration.kind as IntegrationKind,
      integration.settings,
      credentials,
      deps.urls,
    );
    if (delivery.action === 'test') {
      await target.test();
    } else {
      const [ticket] = ticketWhere ? await db.select().from(integrationTickets).where(ticketWhere) : [];
      const [finding] = ticket?.findingId
        ? await db.select().from(findings).where(eq(findings.id, ticket.findingId))
        : [];
      if (!ticket || !finding) {
        await record({ status: 'failed', error: 'The finding is gone' });
        return 'failed';
      }
      const item = ticketItem(finding, ticket.findingKey, deps.publicUrl);
      // The key a finding had when its ticket was filed: a finding whose target changed has a new one.
      item.key = ticket.findingKey;
      const ref =
        ticket.wanted === 'open'
          ? await target.open(item, ticket.ref, ticket.reason)
          : await target.close(item, ticket.ref, ticket.reason ?? 'Closed by DangleWatch.');
      // Delivered: its words were told, so a later redelivery of the same state says nothing again;
      // a change made meanwhile (another updatedAt) stays to be delivered.
      await db
        .update(integrationTickets)
        .set({ delivered: ticket.wanted, ref: ref ?? ticket.ref, queued: null, reason: null })
        .where(and(ticketWhere, eq(integrationTickets.updatedAt, ticket.updatedAt)));
    }
    await record({ status: 'delivered', error: null });
    return 'delivered';
  } catch (error) {
    const retry = error instanceof ConnectorError ? error.retry : true;
    const message =
      error instanceof ConnectorError ? error.full : error instanceof Error ? error.message : String(error);
    const last = !retry || attempt >= INTEGRATION_ATTEMPTS;
    await record({
      status: last ? 'failed' : 'pending',
      error: last && retry ? `Gave up after ${attempt} attempts: ${message}` : message,
    });
    deps.logger.warn(
      { deliveryId, attempt, error: message },
      last ? 'integration delivery failed for good' : 'integration delivery failed',
    );
    return last ? 'failed' : 'retry';
  }
}
