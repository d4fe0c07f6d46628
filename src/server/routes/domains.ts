import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  addDomain,
  domainTrend,
  keepDomain,
  removeDomain,
  updateDomain,
  uploadZoneFile,
  verifyDomain,
} from '../../core/domains/domains.ts';
import { inventoryView } from '../../core/domains/inventory.ts';
import type { ScanQueue } from '../../core/domains/scan-requests.ts';
import { listDomains } from '../../core/domains/store.ts';
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
import { sessionContext } from '../workspace-scope.ts';

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
      return c.json(await listDomains(db, await sessionContext(db, c), now()));
    })
    .post('/', smallBody, async (c) => {
      const body = await readJson(c, addSchema);
      return c.json(
        { domain: await addDomain(db, deps.queue, await sessionContext(db, c), body, now()) },
        201,
      );
    })
    .post('/:id/verify', async (c) => {
      const ctx = await sessionContext(db, c);
      return c.json(
        await verifyDomain(db, deps.queue, ctx, c.req.param('id'), { resolvers: deps.resolvers, now: now() }),
      );
    })
    .patch('/:id', smallBody, async (c) => {
      const change = await readJson(c, patchSchema);
      const ctx = await sessionContext(db, c);
      return c.json({ domain: await updateDomain(db, ctx, c.req.param('id'), change, now()) });
    })
    .get('/:id/trend', async (c) => {
      const ctx = await sessionContext(db, c);
      return c.json({ points: await domainTrend(db, ctx, c.req.param('id'), now()) });
    })
    .put('/:id/zone-file', limitBody(BODY_LIMIT_KB.zoneFile), async (c) => {
      const ctx = await sessionContext(db, c);
      await countRequest(c, db, `${ZONE_FILE_RATE.name}:${ctx.actor.userId}`, ZONE_FILE_RATE);
      if (!c.req.header('content-type')?.startsWith('text/plain')) {
        throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the zone file as text/plain');
      }
      const body = Readable.fromWeb(
        (c.req.raw.body ?? new ReadableStream()) as NodeReadableStream<Uint8Array>,
      );
      const { update, scan } = await uploadZoneFile(db, deps.queue, ctx, c.req.param('id'), body, now());
      return c.json({ records: update.records, scanId: scan?.id ?? null });
    })
    .get('/:id/records', async (c) => {
      const page = parseInput(inventoryQuerySchema, c.req.query());
      const ctx = await sessionContext(db, c);
      await countRequest(c, db, `${DNS_READ_RATE.name}:${ctx.actor.userId}`, DNS_READ_RATE);
      return c.json(await inventoryView(db, ctx, c.req.param('id'), page));
    })
    .post('/:id/keep', async (c) => {
      const ctx = await sessionContext(db, c);
      return c.json({ domain: await keepDomain(db, ctx, c.req.param('id'), now()) });
    })
    .delete('/:id', async (c) => {
      await removeDomain(db, await sessionContext(db, c), c.req.param('id'), now());
      return c.body(null, 204);
    });
}
