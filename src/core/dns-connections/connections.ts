import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dnsConnections, dnsConnectionZones, domains } from '../../db/schema.ts';
import { type ConnectionView, DEFAULT_SCAN_CONFIG } from '../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../model/domain-input.ts';
import { providers } from '../../scanner/zone/providers/index.ts';
import {
  credentialSchemas,
  type ProviderCallOptions,
  ProviderError,
  type ProviderId,
} from '../../scanner/zone/providers/provider.ts';
import { audit } from '../audit.ts';
import { assertFreeTierDomain } from '../domains/free-tier.ts';
import { quotaView } from '../domains/quota.ts';
import { newVerificationToken } from '../domains/store.ts';
import type { DomainRow } from '../domains/views.ts';
import { ServiceError } from '../errors.ts';
import { isUuid, parseInput } from '../validation.ts';
import { underWorkspaceLock } from '../workspaces/workspaces.ts';
import { type SecretsKey, seal } from './secrets.ts';
import { type SyncOptions, syncConnection } from './sync.ts';

/** The one definition lives in the dashboard contract, which the browser reads too. */
export type { ConnectionView };

type ConnectionRow = typeof dnsConnections.$inferSelect;

export function connectionView(
  row: ConnectionRow,
  zones: { zone: string; domainId: string | null }[],
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
    syncFailingSince: iso(row.syncFailingSince),
    zones,
  };
}

export function requireKey(secrets: SecretsKey | undefined): Buffer {
  if (!secrets)
    throw new ServiceError(
      'unavailable',
      'DNS_CONNECTIONS_UNAVAILABLE',
      'DNS connections are not set up on this server',
    );
  if (!secrets.key) throw new ServiceError('unavailable', 'DNS_CONNECTIONS_UNAVAILABLE', secrets.reason);
  return secrets.key;
}

/** The last four characters of the credential's secret part: enough to tell two apart. */
function hintOf(provider: ProviderId, credentials: Record<string, string>): string {
  const secret =
    provider === 'route53'
      ? credentials.accessKeyId
      : provider === 'gcloud'
        ? (/"client_email"\s*:\s*"([^"]+)"/.exec(credentials.serviceAccountJson ?? '')?.[1] ?? '')
        : (credentials.apiToken ?? credentials.token ?? '');
  return (secret ?? '').slice(-4);
}

/** A provider's refusal in the API's words: the provider's own message, never the credential. */
function providerFailure(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error;
  if (error.failure === 'credentials' || error.failure === 'not-found') {
    throw new ServiceError('invalid', 'PROVIDER_REFUSED', error.message);
  }
  throw new ServiceError('upstream-failed', 'PROVIDER_UNAVAILABLE', error.message);
}

/**
 * Checks a credential with a read call (the zones it can read) and stores it sealed with the zones.
 * A credential the provider refuses is not stored.
 */
export async function createConnection(
  db: Db,
  key: Buffer,
  workspaceId: string,
  /** Who adds it, named on the connection. */
  user: { email: string | null; displayName: string | null },
  input: { provider: ProviderId; label?: string; credentials: unknown },
  options: ProviderCallOptions,
): Promise<ConnectionView> {
  const provider = providers[input.provider];
  const credentials = parseInput(credentialSchemas[input.provider], input.credentials) as Record<
    string,
    string
  >;
  const zones = await provider.listZones(credentials as never, options).catch(providerFailure);
  const [row] = await db
    .insert(dnsConnections)
    .values({
      workspaceId,
      provider: input.provider,
      label: input.label?.trim() || provider.label,
      credentialSealed: seal(key, JSON.stringify(credentials), workspaceId),
      credentialHint: hintOf(input.provider, credentials),
      createdBy: user.email ?? user.displayName,
      lastUsedAt: new Date(),
    })
    .returning();
  if (!row) throw new Error('insert returned no connection');
  const unique = [...new Set(zones)].sort();
  if (unique.length) {
    await db.insert(dnsConnectionZones).values(unique.map((zone) => ({ connectionId: row.id, zone })));
  }
  return connectionView(
    row,
    unique.map((zone) => ({ zone, domainId: null })),
  );
}

export async function ownConnection(db: Db, userId: string, id: string): Promise<ConnectionRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(dnsConnections)
        .where(and(eq(dnsConnections.id, id), eq(dnsConnections.workspaceId, userId)))
    : [];
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'DNS connection not found');
  return row;
}

export async function listConnections(db: Db, userId: string): Promise<ConnectionView[]> {
  const rows = await db
    .select()
    .from(dnsConnections)
    .where(eq(dnsConnections.workspaceId, userId))
    .orderBy(asc(dnsConnections.createdAt));
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
  return rows.map((row) =>
    connectionView(
      row,
      zones.filter((z) => z.connectionId === row.id).map((z) => ({ zone: z.zone, domainId: z.domainId })),
    ),
  );
}

/**
 * Monitors one of the connection's zones: links it to its domain (added, pending, within the plan's
 * number of domains when it is new), reads its records at once and checks its delegation. The zone
 * proves the domain only when public DNS delegates it to the provider (zone-proof.ts); otherwise the
 * domain waits for that or for its TXT record, with its records kept. Returns the domain as it is
 * after the read, and whether it earned its first scan.
 */
export async function monitorZone(
  db: Db,
  key: Buffer,
  settings: Omit<SyncOptions, 'only' | 'actorId'>,
  request: {
    /** The workspace the zone's domain goes into, with its plan, and the caller's e-mail address. */
    owner: { id: string; tier: string; email: string | null };
    /** Who monitors it: the audit log names them, and the first scan is given once per account and name. */
    actorId: string;
    emailVerified: boolean;
    connection: ConnectionRow;
    zone: string;
    now: Date;
    ip?: string;
  },
): Promise<{ domain: DomainRow; firstScan: boolean }> {
  const { owner, connection, zone, now } = request;
  const linked = await underWorkspaceLock(db, owner.id, async (tx) => {
    const [link] = await tx
      .select()
      .from(dnsConnectionZones)
      .where(and(eq(dnsConnectionZones.connectionId, connection.id), eq(dnsConnectionZones.zone, zone)));
    if (!link)
      throw new ServiceError('not-found', 'NOT_FOUND', `This connection cannot read a zone called ${zone}`);
    const [existing] = await tx
      .select()
      .from(domains)
      .where(and(eq(domains.workspaceId, owner.id), eq(domains.domain, zone)));
    if (!existing) {
      const quota = await quotaView(tx, owner, now);
      if (quota.currentDomains >= quota.maxDomains) {
        throw new ServiceError('conflict', 'DOMAIN_LIMIT', DOMAIN_MESSAGES.limit(quota.maxDomains));
      }
      assertFreeTierDomain(owner, request.emailVerified, zone);
    }
    const [domain] = existing
      ? [existing]
      : await tx
          .insert(domains)
          .values({
            workspaceId: owner.id,
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
    return domain;
  });
  await audit(db, {
    userId: request.actorId,
    workspaceId: owner.id,
    action: 'dns.zone_monitored',
    detail: { connectionId: connection.id, zone, domainId: linked.id },
    ip: request.ip,
  });
  // A provider failing now is said on the connection; the domain stays linked, and the next sync
  // reads the zone and checks its delegation again.
  const [synced] = await syncConnection(
    db,
    key,
    connection,
    { ...settings, only: zone, actorId: request.actorId },
    now,
  ).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    return [];
  });
  return { domain: synced?.ownership.domain ?? linked, firstScan: synced?.ownership.firstScan ?? false };
}

/** Removes a connection: its sealed credential goes with the row, at once; the domains and their history stay. */
export async function removeConnection(db: Db, id: string): Promise<void> {
  await db.delete(dnsConnections).where(eq(dnsConnections.id, id));
}
