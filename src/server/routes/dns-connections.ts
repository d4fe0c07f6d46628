import { Hono } from 'hono';
import { z } from 'zod';
import { audit } from '../../core/audit.ts';
import {
  connectionView,
  createConnection,
  listConnections,
  monitorZone,
  ownConnection,
  removeConnection,
  requireKey,
} from '../../core/dns-connections/connections.ts';
import type { SecretsKey } from '../../core/dns-connections/secrets.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { ownDomain, viewOfDomain } from '../../core/domains/store.ts';
import { BODY_LIMIT_KB, DNS_CONNECTION_RATE, DNS_READ_RATE } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { CONNECTION_LABEL_MAX } from '../../model/constants.ts';
import { PROVIDER_IDS, type ProviderCallOptions } from '../../scanner/zone/providers/provider.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { callerIn } from '../workspace-scope.ts';

export interface DnsConnectionDeps {
  /** The key credentials are sealed with; without one, every call says why it cannot work. */
  secrets?: SecretsKey;
  /** Base URLs and timeouts of the providers' APIs (their environment variables). */
  providerOptions?: ProviderCallOptions;
  queue: ScanQueue;
  /** The scan resolvers: a zone's public delegation, its proof of ownership, is asked through them. */
  resolvers?: string[];
  /** Queues a read of the connection's zones now; without it, 'sync now' answers 503. */
  enqueueSync?: (connectionId: string) => Promise<void>;
  now?: () => Date;
}

const createSchema = z.strictObject({
  provider: z.enum(PROVIDER_IDS),
  label: z.string().trim().max(CONNECTION_LABEL_MAX).optional(),
  // Checked against the provider's own schema once the provider is known.
  credentials: z.record(z.string(), z.unknown()),
});
const zoneSchema = z.strictObject({ zone: z.string().trim().toLowerCase().min(1).max(253) });

/** The caller's DNS provider connections (read-only credentials) and the zones they monitor. */
export function dnsConnectionRoutes(db: Db, auth: AuthDeps | undefined, deps: DnsConnectionDeps) {
  const now = () => deps.now?.() ?? new Date();
  const options = deps.providerOptions ?? {};
  // Each of these makes our server call a provider for the caller: counted per account.
  const limited = async (c: Parameters<typeof countRequest>[0], userId: string) =>
    countRequest(c, db, `${DNS_CONNECTION_RATE.name}:${userId}`, DNS_CONNECTION_RATE);

  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const { user, owner } = await callerIn(db, c, 'read');
      await countRequest(c, db, `${DNS_READ_RATE.name}:${user.id}`, DNS_READ_RATE);
      return c.json({ connections: await listConnections(db, owner.id) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.connection), async (c) => {
      const body = await readJson(c, createSchema);
      const { user, owner } = await callerIn(db, c, 'dns-connections.manage');
      const key = requireKey(deps.secrets);
      await limited(c, user.id);
      const connection = await createConnection(db, key, owner.id, user, body, options);
      await audit(db, {
        userId: user.id,
        workspaceId: owner.id,
        action: 'dns.connected',
        detail: {
          connectionId: connection.id,
          provider: connection.provider,
          zones: connection.zones.length,
        },
        ip: c.get('clientAddress'),
      });
      return c.json({ connection }, 201);
    })
    .post('/:id/zones', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const { zone } = await readJson(c, zoneSchema);
      const { user, owner } = await callerIn(db, c, 'dns-connections.manage');
      const connection = await ownConnection(db, owner.id, c.req.param('id'));
      const key = requireKey(deps.secrets);
      await limited(c, user.id);
      const { domain } = await monitorZone(
        db,
        key,
        { queue: deps.queue, providerOptions: options, resolvers: deps.resolvers },
        {
          owner,
          actorId: user.id,
          emailVerified: c.var.token.email_verified === true,
          connection,
          zone,
          now: now(),
          ip: c.get('clientAddress'),
        },
      );
      // As it is after the read: with its inventory, and its first scan.
      return c.json({ domain: await viewOfDomain(db, await ownDomain(db, owner.id, domain.id)) }, 201);
    })
    .post('/:id/sync', async (c) => {
      const { user, owner } = await callerIn(db, c, 'dns-connections.manage');
      const connection = await ownConnection(db, owner.id, c.req.param('id'));
      requireKey(deps.secrets);
      if (!deps.enqueueSync) {
        throw new ApiError(503, 'SYNC_UNAVAILABLE', 'Zone syncs are not running on this server');
      }
      await limited(c, user.id);
      await deps.enqueueSync(connection.id);
      return c.json({ connection: connectionView(connection, []), queued: true }, 202);
    })
    .delete('/:id', async (c) => {
      const { user, owner } = await callerIn(db, c, 'dns-connections.manage');
      await countRequest(c, db, `${DNS_READ_RATE.name}:${user.id}`, DNS_READ_RATE);
      const connection = await ownConnection(db, owner.id, c.req.param('id'));
      await removeConnection(db, connection.id);
      await audit(db, {
        userId: user.id,
        workspaceId: owner.id,
        action: 'dns.disconnected',
        detail: { connectionId: connection.id, provider: connection.provider },
        ip: c.get('clientAddress'),
      });
      return c.body(null, 204);
    });
}
