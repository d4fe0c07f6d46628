import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { BODY_LIMIT_KB, WEBHOOK_LIMIT, WEBHOOK_TEST_RATE } from '../../core/limits.ts';
import { currentUser, underUserLock } from '../../core/users/users.ts';
import { isUuid } from '../../core/validation.ts';
import { checkWebhookTarget } from '../../core/webhooks/target.ts';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema.ts';
import { WEBHOOK_FORMATS } from '../../model/contract.ts';
import type { AllowPrivate } from '../../scanner/net/address-guard.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';

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

const DELIVERY_LOG = 50;

type HookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const hookView = (row: HookRow) => ({
  id: row.id,
  url: row.url,
  format: row.format,
  secret: row.secret,
  createdAt: row.createdAt.toISOString(),
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

/** The caller's webhooks (change alerts), their delivery log, and 'Send test'. */
export function webhookRoutes(db: Db, auth: AuthDeps | undefined, deps: WebhookDeps | undefined) {
  const own = async (userId: string, id: string) => {
    const [row] = isUuid(id)
      ? await db
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)))
      : [];
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'Webhook not found');
    return row;
  };
  const queue = () => {
    if (!deps)
      throw new ApiError(503, 'WEBHOOKS_UNAVAILABLE', 'Webhook delivery is not running on this server');
    return deps;
  };

  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const user = await currentUser(db, c.var);
      const hooks = await db
        .select()
        .from(webhooks)
        .where(eq(webhooks.userId, user.id))
        .orderBy(webhooks.createdAt);
      const deliveries = hooks.length
        ? await db
            .select()
            .from(webhookDeliveries)
            .where(
              inArray(
                webhookDeliveries.webhookId,
                hooks.map((h) => h.id),
              ),
            )
            .orderBy(desc(webhookDeliveries.createdAt))
            .limit(DELIVERY_LOG)
        : [];
      return c.json({ webhooks: hooks.map(hookView), deliveries: deliveries.map(deliveryView) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, addSchema);
      const user = await currentUser(db, c.var);
      // Resolved before the lock is taken: a slow name must not hold the account's row.
      const target = await checkWebhookTarget(body.url, deps?.allowPrivate ?? false, deps?.resolvers);
      if (!target.ok) throw new ApiError(400, 'VALIDATION_ERROR', target.message);
      const row = await underUserLock(db, user.id, async (tx) => {
        const [existing] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, user.id));
        if (Number(existing?.n ?? 0) >= WEBHOOK_LIMIT) {
          throw new ApiError(409, 'WEBHOOK_LIMIT', `You can add at most ${WEBHOOK_LIMIT} webhooks`);
        }
        const [inserted] = await tx
          .insert(webhooks)
          .values({
            userId: user.id,
            url: target.url.toString(),
            format: body.format,
            secret: `whsec_${randomBytes(24).toString('base64url')}`,
          })
          .returning();
        return inserted;
      });
      if (!row) throw new Error('insert returned no webhook');
      return c.json({ webhook: hookView(row) }, 201);
    })
    .delete('/:id', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await own(user.id, c.req.param('id'));
      await db.delete(webhooks).where(eq(webhooks.id, row.id));
      return c.body(null, 204);
    })
    .post('/:id/test', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await own(user.id, c.req.param('id'));
      const { enqueue } = queue();
      // Per account, not per webhook: otherwise 'Send test' floods any endpoint through us.
      await countRequest(c, db, `${WEBHOOK_TEST_RATE.name}:${user.id}`, WEBHOOK_TEST_RATE);
      const [delivery] = await db
        .insert(webhookDeliveries)
        .values({
          webhookId: row.id,
          kind: 'test',
          payload: {
            event: 'test',
            text: 'DangleWatch test delivery: this webhook works.',
            sentAt: new Date().toISOString(),
          },
        })
        .returning();
      if (!delivery) throw new Error('insert returned no delivery');
      await enqueue(delivery.id, user.id);
      return c.json({ delivery: deliveryView(delivery) }, 202);
    });
}
