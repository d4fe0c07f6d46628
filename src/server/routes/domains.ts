import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import { z } from 'zod';
import { audit } from '../../core/audit.ts';
import { inventoryView } from '../../core/dns-connections/inventory.ts';
import {
  addDomain,
  domainTrend,
  keepDomain,
  removeDomain,
  updateDomain,
  uploadZoneFile,
  verifyDomain,
} from '../../core/domains/domains.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { listDomains, ownDomain, viewOfDomain } from '../../core/domains/store.ts';
import { BODY_LIMIT_KB, DNS_READ_RATE, ZONE_FILE_RATE } from '../../core/limits.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import {
  alertSettingsSchema,
  domainNameSchema,
  inventoryQuerySchema,
  scanConfigSchema,
} from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { callerIn } from '../workspace-scope.ts';

export interface DomainDeps {
  queue: ScanQueue;
  /** The engine's resolvers, for the ownership lookup. */
  resolvers?: string[];
  now?: () => Date;
}

const smallBody = limitBody(BODY_LIMIT_KB.standard);

const addSchema = z.strictObject({ domain: domainNameSchema, scanConfig: scanConfigSchema.optional() });
const patchSchema = z
  .strictObject({ scanConfig: scanConfigSchema.optional(), alerts: alertSettingsSchema.optional() })
  .refine((body) => body.scanConfig || body.alerts, 'give scanConfig, alerts or both');

/** The caller's monitored domains: the dashboard's Domains screen and its API (docs/fixed-contract.md). */
export function domainRoutes(db: Db, auth: AuthDeps | undefined, deps: DomainDeps) {
  const now = () => deps.now?.() ?? new Date();
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      return c.json(await listDomains(db, owner, now()));
    })
    .post('/', smallBody, async (c) => {
      const body = await readJson(c, addSchema);
      const { user, owner } = await callerIn(db, c, 'domains.write');
      const row = await addDomain(
        db,
        deps.queue,
        owner,
        { id: user.id, emailVerified: c.var.token.email_verified === true, ip: c.get('clientAddress') },
        body,
        now(),
      );
      return c.json({ domain: await viewOfDomain(db, row) }, 201);
    })
    .post('/:id/verify', async (c) => {
      const { user, owner } = await callerIn(db, c, 'domains.write');
      const result = await verifyDomain(db, deps.queue, owner, user.id, c.req.param('id'), {
        resolvers: deps.resolvers,
        now: now(),
        ip: c.get('clientAddress'),
      });
      const { domain } = result;
      const view = await viewOfDomain(db, domain);
      return c.json(
        result.verified
          ? { verified: true, domain: view }
          : { verified: false, error: result.error, domain: view },
      );
    })
    .patch('/:id', smallBody, async (c) => {
      const change = await readJson(c, patchSchema);
      const { owner } = await callerIn(db, c, 'domains.write');
      const { domain } = await updateDomain(db, owner.id, c.req.param('id'), change, now());
      return c.json({ domain: await viewOfDomain(db, domain) });
    })
    .get('/:id/trend', async (c) => {
      const { owner } = await callerIn(db, c, 'read');
      return c.json({ points: await domainTrend(db, owner.id, c.req.param('id'), now()) });
    })
    .put('/:id/zone-file', limitBody(BODY_LIMIT_KB.zoneFile), async (c) => {
      const { user, owner } = await callerIn(db, c, 'domains.write');
      const row = await ownDomain(db, owner.id, c.req.param('id'));
      await countRequest(c, db, `${ZONE_FILE_RATE.name}:${user.id}`, ZONE_FILE_RATE);
      if (!c.req.header('content-type')?.startsWith('text/plain')) {
        throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the zone file as text/plain');
      }
      const body = Readable.fromWeb(
        (c.req.raw.body ?? new ReadableStream()) as NodeReadableStream<Uint8Array>,
      );
      const { update, scan } = await uploadZoneFile(db, deps.queue, owner, row, body, now());
      return c.json({ records: update.records, scanId: scan?.id ?? null });
    })
    .get('/:id/records', async (c) => {
      const page = parseInput(inventoryQuerySchema, c.req.query());
      const { user, owner } = await callerIn(db, c, 'read');
      const row = await ownDomain(db, owner.id, c.req.param('id'));
      await countRequest(c, db, `${DNS_READ_RATE.name}:${user.id}`, DNS_READ_RATE);
      return c.json(await inventoryView(db, row, page));
    })
    .post('/:id/keep', async (c) => {
      const { owner } = await callerIn(db, c, 'domains.write');
      const updated = await keepDomain(db, owner.id, c.req.param('id'), now());
      return c.json({ domain: await viewOfDomain(db, updated) });
    })
    .delete('/:id', async (c) => {
      const { user, owner } = await callerIn(db, c, 'domains.write');
      const row = await removeDomain(db, owner.id, c.req.param('id'));
      await audit(db, {
        userId: user.id,
        workspaceId: owner.id,
        action: 'domain.removed',
        detail: { domainId: row.id, domain: row.domain },
        ip: c.get('clientAddress'),
      });
      return c.body(null, 204);
    });
}
