import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  credentialSchemas,
  type ProviderCallOptions,
  ProviderError,
  type ProviderId,
} from '../../connectors/dns/provider.ts';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones, domains } from '../../db/schema.ts';
import { memberName } from '../../model/connections.ts';
import { type ConnectionView, DEFAULT_SCAN_CONFIG, type DomainView } from '../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../model/domain-input.ts';
import { providers } from '../../scanner/zone/providers/index.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { answererNames, assertLive, disabledView, enableConnection } from '../connections/answerable.ts';
import { connectChecked } from '../connections/connect.ts';
import { credentialHint, parseCredential, requireKey, sealCredential } from '../connections/credentials.ts';
import { ownRow, removeOwn, rowsOf, viewOfOne } from '../connections/own.ts';
import { type ReadQueue, requestRead } from '../connections/reads.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import { assertFreeTierDomain } from '../domains/free-tier.ts';
import { quotaView } from '../domains/quota.ts';
import { newVerificationToken, ownDomain, viewOfDomain } from '../domains/store.ts';
import { ServiceError } from '../errors.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';
import { type SyncOptions, syncConnection } from './sync.ts';

/** The one definition lives in the dashboard contract, which the browser reads too. */
export type { ConnectionView };

type ConnectionRow = typeof dnsConnections.$inferSelect;

export function connectionView(
  row: ConnectionRow,
  zones: { zone: string; domainId: string | null }[],
  answeredBy: string | null,
): ConnectionView {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    provider: row.provider as ProviderId,
    label: row.label,
    credentialHint: row.credentialHint,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    lastSyncAt: iso(row.lastSyncAt),
    syncError: row.syncError,
    syncErrorDetail: row.syncErrorDetail,
    syncFailingSince: iso(row.syncFailingSince),
    zones,
    disabled: disabledView(row),
    answeredBy,
  };
}

/** The part of the credential that tells two apart: its token, key id or service account. */
function identifyingPart(provider: ProviderId, credentials: Record<string, string>): string | undefined {
  if (provider === 'route53') return credentials.accessKeyId;
  if (provider === 'gcloud')
    return /"client_email"\s*:\s*"([^"]+)"/.exec(credentials.serviceAccountJson ?? '')?.[1] ?? '';
  return credentials.apiToken ?? credentials.token ?? '';
}

/** A provider's refusal: the credential or a zone it cannot see is refused; anything else is down. */
const providerFailure = (error: unknown) =>
  error instanceof ProviderError
    ? error.failure === 'credentials' || error.failure === 'not-found'
      ? 'refused'
      : 'unreachable'
    : undefined;

/**
 * Checks a credential with a read call (the zones it can read) and stores it sealed with the zones.
 * A credential the provider refuses is not stored.
 */
export async function createConnection(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  input: { provider: ProviderId; label?: string; credentials: unknown },
  options: ProviderCallOptions,
): Promise<ConnectionView> {
  authorize(ctx, 'dns-connections.manage');
  const workspaceId = ctx.workspace.id;
  const provider = providers[input.provider];
  const credentials = parseCredential(credentialSchemas[input.provider], input.credentials);
  const check = async () => [...new Set(await provider.listZones(credentials as never, options))].sort();
  const checks = { check, failure: providerFailure };
  const { row, unique } = await connectChecked(db, ctx, 'dns', secrets, checks, async (tx, key, unique) => {
    const [inserted] = await tx
      .insert(dnsConnections)
      .values({
        workspaceId,
        provider: input.provider,
        label: input.label?.trim() || provider.label,
        credentialSealed: sealCredential(key, 'dns', { workspaceId, service: input.provider }, credentials),
        credentialHint: credentialHint(identifyingPart(input.provider, credentials)),
        createdBy: ctx.actor.email ?? ctx.actor.displayName,
        answeredBy: ctx.actor.userId,
        lastUsedAt: new Date(),
      })
      .returning();
    if (!inserted) throw new Error('insert returned no connection');
    if (unique.length) {
      await tx.insert(dnsConnectionZones).values(unique.map((zone) => ({ connectionId: inserted.id, zone })));
    }
    await auditIn(tx, ctx, 'dns.connected', {
      connectionId: inserted.id,
      provider: inserted.provider,
      zones: unique.length,
    });
    return { row: inserted, unique };
  });
  return connectionView(
    row,
    unique.map((zone) => ({ zone, domainId: null })),
    memberName(ctx.actor),
  );
}

export async function listConnections(db: Db, ctx: WorkspaceContext): Promise<ConnectionView[]> {
  authorize(ctx, 'read');
  return viewsWithZones(db, await rowsOf(db, 'dns', ctx.workspace.id));
}

/** The connections as the API shows them, each with the zones it reads. */
async function viewsWithZones(db: Db, rows: ConnectionRow[]): Promise<ConnectionView[]> {
  const zones = rows.length
    ? await db
        .select()
        .from(dnsConnectionZones)
        .where(
          inArray(
            dnsConnectionZones.connectionId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(dnsConnectionZones.zone))
    : [];
  const nameOf = await answererNames(
    db,
    rows.map((row) => row.answeredBy),
  );
  return rows.map((row) =>
    connectionView(
      row,
      zones.filter((z) => z.connectionId === row.id).map((z) => ({ zone: z.zone, domainId: z.domainId })),
      nameOf(row.answeredBy),
    ),
  );
}

/**
 * Monitors one of the connection's zones: links it to its domain (added, pending, within the plan's
 * number of domains when it is new), reads its records at once and checks its delegation. The zone
 * proves the domain only when public DNS delegates it to the provider (zone-proof.ts); otherwise the
 * domain waits for that or for its TXT record, with its records kept. Returns the domain as it is
 * after the read, with its first scan when it earned one. Whoever monitors it is named in the audit
 * log, and the first scan is given once per account and name.
 */
export async function monitorZone(
  db: Db,
  secrets: SecretsKey | undefined,
  settings: Omit<SyncOptions, 'only' | 'actorId'>,
  ctx: WorkspaceContext,
  request: { connectionId: string; zone: string; now: Date },
): Promise<DomainView> {
  authorize(ctx, 'dns-connections.manage');
  const actorId = ctx.actor.userId;
  const { workspace, actor } = ctx;
  const { zone, now } = request;
  const connection = await ownRow(db, 'dns', workspace.id, request.connectionId);
  assertLive('dns', connection);
  const key = requireKey(secrets, 'dns');
  const linked = await underWorkspaceLock(db, workspace.id, async (tx) => {
    const [link] = await tx
      .select()
      .from(dnsConnectionZones)
      .where(and(eq(dnsConnectionZones.connectionId, connection.id), eq(dnsConnectionZones.zone, zone)));
    if (!link)
      throw new ServiceError('not-found', 'NOT_FOUND', `This connection cannot read a zone called ${zone}`);
    const [existing] = await tx
      .select()
      .from(domains)
      .where(and(eq(domains.workspaceId, workspace.id), eq(domains.domain, zone)));
    if (!existing) {
      const quota = await quotaView(tx, workspace, now);
      if (quota.currentDomains >= quota.maxDomains) {
        throw new ServiceError('conflict', 'DOMAIN_LIMIT', DOMAIN_MESSAGES.limit(quota.maxDomains));
      }
      assertFreeTierDomain({ tier: workspace.tier, email: actor.email }, actor.emailVerified, zone);
    }
    const [domain] = existing
      ? [existing]
      : await tx
          .insert(domains)
          .values({
            workspaceId: workspace.id,
            domain: zone,
            verificationToken: newVerificationToken(),
            scanConfig: DEFAULT_SCAN_CONFIG,
          })
          .returning();
    if (!domain) throw new Error('no domain row');
    await tx
      .update(dnsConnectionZones)
      .set({ domainId: domain.id })
      .where(eq(dnsConnectionZones.id, link.id));
    await auditIn(tx, ctx, 'dns.zone_monitored', { connectionId: connection.id, zone, domainId: domain.id });
    return domain;
  });
  // A provider failing now is said on the connection; the domain stays linked, and the next sync
  // reads the zone and checks its delegation again.
  const [synced] = await syncConnection(db, key, connection, { ...settings, only: zone, actorId }, now).catch(
    (error: unknown) => {
      if (!(error instanceof ProviderError)) throw error;
      return [];
    },
  );
  // As it is after the read: with its inventory, and its first scan.
  return viewOfDomain(db, await ownDomain(db, workspace.id, (synced?.ownership.domain ?? linked).id));
}

/**
 * Asks for a read of the connection's zones now: `sync.enqueue` queues it for the worker (none on a
 * server that runs no syncs), after `sync.counted` has counted it against the caller's rate.
 * Answers the connection as it stands until then.
 */
export async function requestZoneSync(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  id: string,
  sync: ReadQueue,
): Promise<ConnectionView> {
  authorize(ctx, 'dns-connections.manage');
  const connection = await requestRead(db, 'dns', { workspaceId: ctx.workspace.id, id }, secrets, sync);
  return viewOfOne((rows) => viewsWithZones(db, rows), connection);
}

/**
 * Re-enables a connection its answerer's leaving disabled; the admin who does it answers for it
 * from now on, and its zones are read again on the next scheduled sync.
 */
export async function enableDnsConnection(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
): Promise<ConnectionView> {
  authorize(ctx, 'dns-connections.manage');
  const connection = await ownRow(db, 'dns', ctx.workspace.id, id);
  await enableConnection(db, ctx, 'dns', connection.id, {
    connectionId: connection.id,
    label: connection.label,
  });
  return viewOfOne((rows) => viewsWithZones(db, rows), await ownRow(db, 'dns', ctx.workspace.id, id));
}

/**
 * Removes a connection: its sealed credential goes with the row, at once; the domains and their
 * history stay.
 */
export async function removeConnection(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'dns-connections.manage');
  await removeOwn(db, ctx, 'dns', id);
}
