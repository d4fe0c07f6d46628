import { Hono } from 'hono';
import { z } from 'zod';
import type { AllowPrivate } from '../../connectors/http/address-guard.ts';
import { disabledView } from '../../core/connections/answerable.ts';
import { BODY_LIMIT_KB, WEBHOOK_TEST_RATE } from '../../core/limits.ts';
import {
  addWebhook,
  type DeliveryRow,
  enableWebhook,
  listWebhooks,
  removeWebhook,
  sendTestDelivery,
  type WebhookRow,
} from '../../core/webhooks/webhooks.ts';
import type { Db } from '../../db/client.ts';
import { WEBHOOK_FORMATS, type WebhookView } from '../../model/contract.ts';
import { enabledField } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

export interface WebhookDeps {
  /** `tenant` (the account) groups deliveries, so one account's slow receiver delays only its own. */
  enqueue: (deliveryId: string, tenant: string) => Promise<void>;
  allowPrivate: AllowPrivate;
  /** The scan resolvers (SCAN_RESOLVERS), through which receivers' names are resolved. */
  resolvers?: string[];
}

const addSchema = z.strictObject({
  url: z.string().trim().min(1).max(2000),
  format: z.enum(WEBHOOK_FORMATS).default('json'),
});

/** Re-enabling a disabled webhook: the one change a webhook takes. */
const updateSchema = z.strictObject({ enabled: enabledField });

const hookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  format: row.format as WebhookView['format'],
  secret: row.secret,
  createdAt: row.createdAt.toISOString(),
  disabled: disabledView(row),
});

const deliveryView = (row: DeliveryRow) => ({
  id: row.id,
  webhookId: row.webhookId,
  kind: row.kind,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The caller's webhooks (change alerts), their delivery log, 'Send test', and re-enabling one. */
export function webhookRoutes(db: Db, auth: AuthDeps | undefined, deps: WebhookDeps | undefined) {
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const { hooks, deliveries } = await listWebhooks(db, await sessionContext(db, c));
      return c.json({ webhooks: hooks.map(hookView), deliveries: deliveries.map(deliveryView) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, addSchema);
      const row = await addWebhook(db, await sessionContext(db, c), body, {
        allowPrivate: deps?.allowPrivate ?? false,
        resolvers: deps?.resolvers,
      });
      return c.json({ webhook: hookView(row) }, 201);
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      await readJson(c, updateSchema);
      const row = await enableWebhook(db, await sessionContext(db, c), c.req.param('id'));
      return c.json({ webhook: hookView(row) });
    })
    .delete('/:id', async (c) => {
      await removeWebhook(db, await sessionContext(db, c), c.req.param('id'));
      return c.body(null, 204);
    })
    .post('/:id/test', async (c) => {
      const ctx = await sessionContext(db, c);
      const delivery = await sendTestDelivery(db, ctx, c.req.param('id'), new Date(), {
        enqueue: deps?.enqueue,
        // Per account, not per webhook: otherwise 'Send test' floods any endpoint through us.
        counted: () =>
          countRequest(c, db, `${WEBHOOK_TEST_RATE.name}:${ctx.actor.userId}`, WEBHOOK_TEST_RATE),
      });
      return c.json({ delivery: deliveryView(delivery) }, 202);
    });
}
