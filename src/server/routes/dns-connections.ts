import { Hono } from 'hono';
import { z } from 'zod';
import { PROVIDER_IDS, type ProviderCallOptions } from '../../connectors/dns/provider.ts';
import type { WorkspaceContext } from '../../core/access.ts';
import type { SecretsKey } from '../../core/connections/secrets.ts';
import {
  createConnection,
  enableDnsConnection,
  listConnections,
  monitorZone,
  removeConnection,
  requestZoneSync,
} from '../../core/dns-connections/connections.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { BODY_LIMIT_KB, DNS_CONNECTION_RATE, DNS_READ_RATE } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { CONNECTION_LABEL_MAX } from '../../model/constants.ts';
import { enabledField } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

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
/** Re-enabling a disabled connection: the one change a connection takes. */
const updateSchema = z.strictObject({ enabled: enabledField });

/** The caller's DNS provider connections (read-only credentials) and the zones they monitor. */
export function dnsConnectionRoutes(db: Db, auth: AuthDeps | undefined, deps: DnsConnectionDeps) {
  const now = () => deps.now?.() ?? new Date();
  const options = deps.providerOptions ?? {};
  // Each of these makes our server call a provider for the caller: counted per account.
  const limited = async (c: Parameters<typeof countRequest>[0], ctx: WorkspaceContext) =>
    countRequest(c, db, `${DNS_CONNECTION_RATE.name}:${ctx.actor.userId}`, DNS_CONNECTION_RATE);

  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const ctx = await sessionContext(db, c);
      await countRequest(c, db, `${DNS_READ_RATE.name}:${ctx.actor.userId}`, DNS_READ_RATE);
      return c.json({ connections: await listConnections(db, ctx) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.connection), async (c) => {
      const body = await readJson(c, createSchema);
      const ctx = await sessionContext(db, c);
      await limited(c, ctx);
      const connection = await createConnection(db, deps.secrets, ctx, body, options);
      return c.json({ connection }, 201);
    })
    .post('/:id/zones', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const { zone } = await readJson(c, zoneSchema);
      const ctx = await sessionContext(db, c);
      await limited(c, ctx);
      const settings = { queue: deps.queue, providerOptions: options, resolvers: deps.resolvers };
      const request = { connectionId: c.req.param('id'), zone, now: now() };
      return c.json({ domain: await monitorZone(db, deps.secrets, settings, ctx, request) }, 201);
    })
    .post('/:id/sync', async (c) => {
      const ctx = await sessionContext(db, c);
      const connection = await requestZoneSync(db, deps.secrets, ctx, c.req.param('id'), {
        enqueue: deps.enqueueSync,
        counted: () => limited(c, ctx),
      });
      return c.json({ connection, queued: true }, 202);
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      await readJson(c, updateSchema);
      const ctx = await sessionContext(db, c);
      return c.json({ connection: await enableDnsConnection(db, ctx, c.req.param('id')) });
    })
    .delete('/:id', async (c) => {
      const ctx = await sessionContext(db, c);
      await countRequest(c, db, `${DNS_READ_RATE.name}:${ctx.actor.userId}`, DNS_READ_RATE);
      await removeConnection(db, ctx, c.req.param('id'));
      return c.body(null, 204);
    });
}
