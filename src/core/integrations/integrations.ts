import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ConnectorError } from '../../connectors/http/error.ts';
import { jiraChoices } from '../../connectors/jira/jira.ts';
import { type Db, inTransaction } from '../../db/client.ts';
import { findings, integrationDeliveries, integrations, integrationTickets } from '../../db/schema.ts';
import {
  INTEGRATION_LABELS,
  type IntegrationDeliveryView,
  type IntegrationKind,
  type IntegrationView,
  type JiraChoices,
} from '../../model/integrations.ts';
import {
  type createIntegrationSchema,
  integrationCredentialSchemas,
  type jiraChoicesSchema,
  type updateIntegrationSchema,
} from '../../model/schemas.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { type SecretsKey, seal } from '../dns-connections/secrets.ts';
import { ServiceError } from '../errors.ts';
import { isUuid } from '../validation.ts';
import { type IntegrationUrls, jiraSite, targetOf } from './targets.ts';
import { queueTicketSync } from './tickets.ts';

type IntegrationRow = typeof integrations.$inferSelect;
type DeliveryRow = typeof integrationDeliveries.$inferSelect;

/** How many deliveries the log keeps showing. */
export const INTEGRATION_DELIVERIES_SHOWN = 50;

const NOT_FOUND = 'Integration not found';

/**
 * A service's refusal as our error: a refused credential is 400; down, slow or rate limiting is 502.
 * The sentence is the message; the service's own words go along as the `provider` detail.
 */
function serviceError(error: ConnectorError): ServiceError {
  const details = error.detail ? [{ path: 'provider', message: error.detail }] : undefined;
  // Down, slow or rate limiting is not a refusal of the credential: 502, and try again.
  if (error.retry)
    return new ServiceError('upstream-failed', 'INTEGRATION_UNREACHABLE', error.message, details);
  return new ServiceError('invalid', 'INTEGRATION_REFUSED', error.message, details);
}

function requireKey(secrets: SecretsKey | undefined): Buffer {
  if (!secrets)
    throw new ServiceError(
      'unavailable',
      'INTEGRATIONS_UNAVAILABLE',
      'Integrations are not set up on this server',
    );
  if (!secrets.key) throw new ServiceError('unavailable', 'INTEGRATIONS_UNAVAILABLE', secrets.reason);
  return secrets.key;
}

/** The sealed credential's context: the workspace and the integration's kind, so it opens nowhere else. */
export const credentialContext = (workspaceId: string, kind: string) => `${workspaceId}:integration:${kind}`;

const deliveryView = (row: DeliveryRow): IntegrationDeliveryView => ({
  id: row.id,
  findingKey: row.findingKey,
  action: row.action as IntegrationDeliveryView['action'],
  status: row.status as IntegrationDeliveryView['status'],
  attempts: row.attempts,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function views(db: Db, rows: IntegrationRow[]): Promise<IntegrationView[]> {
  const out: IntegrationView[] = [];
  for (const row of rows) {
    // The last delivery that ended: what "the last delivery's result" shows.
    const [last] = await db
      .select()
      .from(integrationDeliveries)
      .where(
        and(
          eq(integrationDeliveries.integrationId, row.id),
          sql`${integrationDeliveries.status} <> 'pending'`,
        ),
      )
      .orderBy(desc(integrationDeliveries.updatedAt))
      .limit(1);
    out.push({
      id: row.id,
      kind: row.kind as IntegrationKind,
      label: row.label,
      minStatus: row.minStatus,
      settings: row.settings,
      credentialHint: row.credentialHint,
      createdAt: row.createdAt.toISOString(),
      lastDelivery: last
        ? { at: last.updatedAt.toISOString(), ok: last.status === 'delivered', error: last.error }
        : null,
    });
  }
  return out;
}

async function own(db: Db, workspaceId: string, id: string): Promise<IntegrationRow> {
  if (!isUuid(id)) throw new ServiceError('not-found', 'NOT_FOUND', NOT_FOUND);
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.workspaceId, workspaceId)));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', NOT_FOUND);
  return row;
}

/** The workspace's integrations, oldest first. */
export async function listIntegrations(db: Db, ctx: WorkspaceContext): Promise<IntegrationView[]> {
  authorize(ctx, 'integrations.manage');
  const rows = await db
    .select()
    .from(integrations)
    .where(eq(integrations.workspaceId, ctx.workspace.id))
    .orderBy(integrations.createdAt);
  return views(db, rows);
}

export async function getIntegration(db: Db, ctx: WorkspaceContext, id: string): Promise<IntegrationView> {
  authorize(ctx, 'integrations.manage');
  const [view] = await views(db, [await own(db, ctx.workspace.id, id)]);
  if (!view) throw new ServiceError('not-found', 'NOT_FOUND', NOT_FOUND);
  return view;
}

/**
 * Connects a service: the credential is checked with the service first (PagerDuty, which has no read
 * call, by a test trigger and its resolve); one it refuses is refused here with the service's
 * reason, and nothing is stored. Then the workspace's open findings are queued to be filed.
 */
export async function createIntegration(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  input: z.infer<typeof createIntegrationSchema>,
  urls: IntegrationUrls,
  now: Date,
): Promise<IntegrationView> {
  authorize(ctx, 'integrations.manage');
  const key = requireKey(secrets);
  const workspaceId = ctx.workspace.id;
  try {
    await targetOf(input.kind, input.settings, input.credentials, urls).verify();
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    throw serviceError(error);
  }
  const secret = Object.values(input.credentials).join('');
  const row = await inTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(integrations)
      .values({
        workspaceId,
        kind: input.kind,
        label: input.label ?? INTEGRATION_LABELS[input.kind],
        minStatus: input.minStatus,
        settings: input.settings as Record<string, string>,
        credentialSealed: seal(
          key,
          JSON.stringify(input.credentials),
          credentialContext(workspaceId, input.kind),
        ),
        credentialHint: secret.slice(-4),
        createdBy: ctx.actor.userId,
      })
      .returning();
    if (!inserted) throw new Error('insert returned no integration');
    await auditIn(tx, ctx, 'integration.connected', {
      integrationId: inserted.id,
      kind: inserted.kind,
      label: inserted.label,
    });
    return inserted;
  });
  const open = await db
    .select({ id: findings.id })
    .from(findings)
    .where(and(eq(findings.workspaceId, workspaceId), isNull(findings.resolvedAt)));
  await queueTicketSync(
    db,
    workspaceId,
    open.map((f) => f.id),
    { now },
  );
  const [view] = await views(db, [row]);
  if (!view) throw new Error('no view of the new integration');
  return view;
}

/**
 * What the Jira connect form offers, asked of the admin's site with the credential typed in (nothing
 * is stored): its projects and, for the project given, its issue types and done statuses. Counted
 * before the site is called, so the form cannot be used to probe a site at will.
 */
export async function listJiraChoices(
  ctx: WorkspaceContext,
  input: z.infer<typeof jiraChoicesSchema>,
  urls: IntegrationUrls,
  counted: () => Promise<void>,
): Promise<JiraChoices> {
  authorize(ctx, 'integrations.manage');
  await counted();
  try {
    return await jiraChoices(input.siteUrl, input.credentials, input.projectKey, jiraSite(urls));
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    throw serviceError(error);
  }
}

/**
 * A new label, least status or credential; the tickets follow the new least status. A credential is
 * checked with the service as at connect, and replaces the old one only once it is accepted; then
 * the tickets whose deliveries failed (a revoked token, say) are delivered again.
 */
export async function updateIntegration(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  id: string,
  input: z.infer<typeof updateIntegrationSchema>,
  urls: IntegrationUrls,
  now: Date,
): Promise<IntegrationView> {
  authorize(ctx, 'integrations.manage');
  const current = await own(db, ctx.workspace.id, id);
  const kind = current.kind as IntegrationKind;
  let credential: { sealed: string; hint: string } | undefined;
  if (input.credentials) {
    const key = requireKey(secrets);
    const parsed = integrationCredentialSchemas[kind].safeParse(input.credentials);
    if (!parsed.success)
      throw new ServiceError(
        'invalid',
        'VALIDATION_ERROR',
        `credentials: ${INTEGRATION_LABELS[kind]} takes ${Object.keys(integrationCredentialSchemas[kind].shape).join(' and ')}`,
      );
    try {
      await targetOf(kind, current.settings, parsed.data, urls).verify();
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      throw serviceError(error);
    }
    credential = {
      sealed: seal(key, JSON.stringify(parsed.data), credentialContext(ctx.workspace.id, kind)),
      hint: Object.values(parsed.data).join('').slice(-4),
    };
  }
  const row = await inTransaction(db, async (tx) => {
    const [updated] = await tx
      .update(integrations)
      .set({
        label: input.label ?? current.label,
        minStatus: input.minStatus ?? current.minStatus,
        ...(credential ? { credentialSealed: credential.sealed, credentialHint: credential.hint } : {}),
      })
      .where(eq(integrations.id, current.id))
      .returning();
    if (!updated) throw new ServiceError('not-found', 'NOT_FOUND', NOT_FOUND);
    if (input.label !== undefined || input.minStatus !== undefined)
      await auditIn(tx, ctx, 'integration.changed', { integrationId: updated.id, label: updated.label });
    if (credential) {
      await auditIn(tx, ctx, 'integration.credential_replaced', {
        integrationId: updated.id,
        label: updated.label,
      });
      // Claimed again by the next delivery pass: what failed for good under the old credential.
      await tx
        .update(integrationTickets)
        .set({ queued: null, updatedAt: now })
        .where(
          and(
            eq(integrationTickets.integrationId, updated.id),
            sql`${integrationTickets.delivered} is distinct from ${integrationTickets.wanted}`,
          ),
        );
    }
    return updated;
  });
  if (input.minStatus && input.minStatus !== current.minStatus) {
    const open = await db
      .select({ id: findings.id })
      .from(findings)
      .where(and(eq(findings.workspaceId, ctx.workspace.id), isNull(findings.resolvedAt)));
    await queueTicketSync(
      db,
      ctx.workspace.id,
      open.map((f) => f.id),
      { now },
    );
  }
  const [view] = await views(db, [row]);
  if (!view) throw new Error('no view of the integration');
  return view;
}

/** Disconnects a service: its credential, tickets' state and log go; the tickets stay in the tracker. */
export async function removeIntegration(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'integrations.manage');
  const row = await own(db, ctx.workspace.id, id);
  await inTransaction(db, async (tx) => {
    await tx.delete(integrations).where(eq(integrations.id, row.id));
    await auditIn(tx, ctx, 'integration.removed', {
      integrationId: row.id,
      kind: row.kind,
      label: row.label,
    });
  });
}

/**
 * "Send a test": one test item (PagerDuty a trigger and its resolve, a tracker one issue titled
 * "DangleWatch test", closed at once), delivered by the queue; counted like webhook tests.
 */
export async function sendIntegrationTest(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  delivery: {
    enqueue: ((deliveryId: string, tenant: string) => Promise<void>) | undefined;
    counted: () => Promise<void>;
  },
): Promise<IntegrationDeliveryView> {
  authorize(ctx, 'integrations.manage');
  const row = await own(db, ctx.workspace.id, id);
  if (!delivery.enqueue)
    throw new ServiceError(
      'unavailable',
      'INTEGRATIONS_UNAVAILABLE',
      'Integration delivery is not running on this server',
    );
  await delivery.counted();
  const [made] = await db
    .insert(integrationDeliveries)
    .values({ integrationId: row.id, action: 'test' })
    .returning();
  if (!made) throw new Error('insert returned no delivery');
  await delivery.enqueue(made.id, ctx.workspace.id);
  return deliveryView(made);
}

/** The integration's last 50 deliveries, newest first. */
export async function listIntegrationDeliveries(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
): Promise<IntegrationDeliveryView[]> {
  authorize(ctx, 'integrations.manage');
  const row = await own(db, ctx.workspace.id, id);
  const rows = await db
    .select()
    .from(integrationDeliveries)
    .where(eq(integrationDeliveries.integrationId, row.id))
    .orderBy(desc(integrationDeliveries.createdAt))
    .limit(INTEGRATION_DELIVERIES_SHOWN);
  return rows.map(deliveryView);
}
