import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ConnectorError } from '../../connectors/http/error.ts';
import { jiraChoices } from '../../connectors/jira/jira.ts';
import { linearTeamLabel, resolveLinearTeam } from '../../connectors/linear/linear.ts';
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
import { answererNames, disabledView, enableConnection } from '../connections/answerable.ts';
import { connectChecked } from '../connections/connect.ts';
import { checkWithProvider, credentialHint, requireKey, sealCredential } from '../connections/credentials.ts';
import { ownRow, removeOwn, rowsOf, viewOfOne } from '../connections/own.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import { queueTest, type TestQueue } from '../connections/test-queue.ts';
import { ServiceError } from '../errors.ts';
import { INTEGRATION_TIMEOUT_MS, type IntegrationUrls, jiraSite, targetOf } from './targets.ts';
import { queueTicketSync } from './tickets.ts';

type IntegrationRow = typeof integrations.$inferSelect;
type DeliveryRow = typeof integrationDeliveries.$inferSelect;

/** How many deliveries the log keeps showing. */
export const INTEGRATION_DELIVERIES_SHOWN = 50;

const NOT_FOUND = 'Integration not found';

/** A service's refusal: a refused credential is the caller's to fix; down, slow or rate limiting is not. */
const serviceFailure = (error: unknown) =>
  error instanceof ConnectorError ? (error.retry ? 'unreachable' : 'refused') : undefined;

/** A credential's hint: the last four characters of its parts, run together. */
const hintOf = (credentials: Record<string, string>) => credentialHint(Object.values(credentials).join(''));

const deliveryView = (row: DeliveryRow, subject: string | null = null): IntegrationDeliveryView => ({
  id: row.id,
  findingKey: row.findingKey,
  subject,
  action: row.action as IntegrationDeliveryView['action'],
  status: row.status as IntegrationDeliveryView['status'],
  attempts: row.attempts,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function views(db: Db, rows: IntegrationRow[]): Promise<IntegrationView[]> {
  const nameOf = await answererNames(
    db,
    rows.map((row) => row.createdBy),
  );
  const out: IntegrationView[] = [];
  for (const row of rows) {
    const ofThis = eq(integrationDeliveries.integrationId, row.id);
    // An attempt that failed and waits for its retry has an error: it ended, for the card's purpose.
    const tried = sql`(${integrationDeliveries.status} <> 'pending' or ${integrationDeliveries.error} is not null)`;
    const [last] = await db
      .select()
      .from(integrationDeliveries)
      .where(and(ofThis, tried))
      .orderBy(desc(integrationDeliveries.updatedAt))
      .limit(1);
    // The newest failure, unless a finding's ticket was delivered since: a test that passes says
    // the credential works, not that the tickets go through (a team or project they are refused in).
    const [failed] = await db
      .select()
      .from(integrationDeliveries)
      .where(and(ofThis, sql`${integrationDeliveries.error} is not null`))
      .orderBy(desc(integrationDeliveries.updatedAt))
      .limit(1);
    const [delivered] = failed
      ? await db
          .select({ at: integrationDeliveries.updatedAt })
          .from(integrationDeliveries)
          .where(
            and(
              ofThis,
              eq(integrationDeliveries.status, 'delivered'),
              sql`${integrationDeliveries.action} <> 'test'`,
              sql`${integrationDeliveries.updatedAt} > ${failed.updatedAt}`,
            ),
          )
          .limit(1)
      : [];
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
      failing:
        failed && !delivered
          ? {
              at: failed.updatedAt.toISOString(),
              error: failed.error ?? '',
              retrying: failed.status === 'pending',
              test: failed.action === 'test',
            }
          : null,
      disabled: disabledView(row),
      answeredBy: nameOf(row.createdBy),
    });
  }
  return out;
}

/** The workspace's integrations, oldest first. */
export async function listIntegrations(db: Db, ctx: WorkspaceContext): Promise<IntegrationView[]> {
  authorize(ctx, 'integrations.manage');
  return views(db, await rowsOf(db, 'integration', ctx.workspace.id));
}

export async function getIntegration(db: Db, ctx: WorkspaceContext, id: string): Promise<IntegrationView> {
  authorize(ctx, 'integrations.manage');
  return viewOfOne((rows) => views(db, rows), await ownRow(db, 'integration', ctx.workspace.id, id));
}

/**
 * The settings an integration keeps, as its service's calls need them: Linear's team, named by its
 * key, name or id at connect, becomes its id (the issue calls take nothing else), with its name
 * and key to show.
 */
async function settingsToKeep(
  input: z.infer<typeof createIntegrationSchema>,
  urls: IntegrationUrls,
): Promise<Record<string, string>> {
  if (input.kind !== 'linear') return input.settings as Record<string, string>;
  const team = await resolveLinearTeam(urls.linear, input.credentials.apiKey, input.settings.teamId, {
    timeoutMs: urls.timeoutMs ?? INTEGRATION_TIMEOUT_MS,
  });
  return { teamId: team.id, team: linearTeamLabel(team) };
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
  const workspaceId = ctx.workspace.id;
  const check = async () => {
    const settings = await settingsToKeep(input, urls);
    await targetOf(input.kind, settings, input.credentials, urls).verify();
    return settings;
  };
  const checks = { check, failure: serviceFailure };
  const row = await connectChecked(db, ctx, 'integration', secrets, checks, async (tx, key, settings) => {
    const [inserted] = await tx
      .insert(integrations)
      .values({
        workspaceId,
        kind: input.kind,
        label: input.label ?? INTEGRATION_LABELS[input.kind],
        minStatus: input.minStatus,
        settings,
        credentialSealed: sealCredential(
          key,
          'integration',
          { workspaceId, service: input.kind },
          input.credentials,
        ),
        credentialHint: hintOf(input.credentials),
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
  return viewOfOne((rows) => views(db, rows), row);
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
  return checkWithProvider(
    'integration',
    () => jiraChoices(input.siteUrl, input.credentials, input.projectKey, jiraSite(urls)),
    serviceFailure,
  );
}

/**
 * A new label, least status or credential, or re-enabled (`enabled`) once its answerer's leaving
 * disabled it, the admin who does it answering for it from now on; the tickets follow the new least
 * status. A credential is checked with the service as at connect, and replaces the old one only
 * once it is accepted. A new credential or a re-enabling delivers again the tickets whose
 * deliveries failed meanwhile (a revoked token, say, or the integration disabled).
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
  const current = await ownRow(db, 'integration', ctx.workspace.id, id);
  const kind = current.kind as IntegrationKind;
  let credential: { sealed: string; hint: string } | undefined;
  if (input.credentials) {
    const key = requireKey(secrets, 'integration');
    const parsed = integrationCredentialSchemas[kind].safeParse(input.credentials);
    if (!parsed.success)
      throw new ServiceError(
        'invalid',
        'VALIDATION_ERROR',
        `credentials: ${INTEGRATION_LABELS[kind]} takes ${Object.keys(integrationCredentialSchemas[kind].shape).join(' and ')}`,
      );
    await checkWithProvider(
      'integration',
      () => targetOf(kind, current.settings, parsed.data, urls).verify(),
      serviceFailure,
    );
    credential = {
      sealed: sealCredential(
        key,
        'integration',
        { workspaceId: ctx.workspace.id, service: kind },
        parsed.data,
      ),
      hint: hintOf(parsed.data),
    };
  }
  if (input.enabled) {
    await enableConnection(db, ctx, 'integration', current.id, {
      integrationId: current.id,
      label: current.label,
    });
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
    if (credential)
      await auditIn(tx, ctx, 'integration.credential_replaced', {
        integrationId: updated.id,
        label: updated.label,
      });
    if (credential || (input.enabled && current.disabledAt)) {
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
  return viewOfOne((rows) => views(db, rows), row);
}

/** Disconnects a service: its credential, tickets' state and log go; the tickets stay in the tracker. */
export async function removeIntegration(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'integrations.manage');
  await removeOwn(db, ctx, 'integration', id);
}

/**
 * "Send a test": one test item (PagerDuty a trigger and its resolve, a tracker one issue titled
 * "DangleWatch test", closed at once), delivered by the queue; counted like webhook tests.
 */
export async function sendIntegrationTest(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  delivery: TestQueue,
): Promise<IntegrationDeliveryView> {
  authorize(ctx, 'integrations.manage');
  const row = await ownRow(db, 'integration', ctx.workspace.id, id);
  const made = await queueTest('integration', row, ctx.workspace.id, delivery, async () => {
    const [inserted] = await db
      .insert(integrationDeliveries)
      .values({ integrationId: row.id, action: 'test' })
      .returning();
    return inserted;
  });
  return deliveryView(made);
}

/** The integration's last 50 deliveries, newest first. */
export async function listIntegrationDeliveries(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
): Promise<IntegrationDeliveryView[]> {
  authorize(ctx, 'integrations.manage');
  const row = await ownRow(db, 'integration', ctx.workspace.id, id);
  // The log names each finding's record, as the user knows it, rather than its key: the ticket
  // keeps which finding it is for.
  const rows = await db
    .select({ delivery: integrationDeliveries, subject: findings.subdomain })
    .from(integrationDeliveries)
    .leftJoin(
      integrationTickets,
      and(
        eq(integrationTickets.integrationId, integrationDeliveries.integrationId),
        eq(integrationTickets.findingKey, integrationDeliveries.findingKey),
      ),
    )
    .leftJoin(findings, eq(findings.id, integrationTickets.findingId))
    .where(eq(integrationDeliveries.integrationId, row.id))
    .orderBy(desc(integrationDeliveries.createdAt))
    .limit(INTEGRATION_DELIVERIES_SHOWN);
  return rows.map(({ delivery, subject }) => deliveryView(delivery, subject));
}
