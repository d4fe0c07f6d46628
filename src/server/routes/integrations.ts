import { Hono } from 'hono';
import type { WorkspaceContext } from '../../core/access.ts';
import type { SecretsKey } from '../../core/connections/secrets.ts';
import {
  createIntegration,
  getIntegration,
  listIntegrationDeliveries,
  listIntegrations,
  listJiraChoices,
  removeIntegration,
  sendIntegrationTest,
  updateIntegration,
} from '../../core/integrations/integrations.ts';
import { DEFAULT_INTEGRATION_URLS, type IntegrationUrls } from '../../core/integrations/targets.ts';
import { BODY_LIMIT_KB, INTEGRATION_CALL_RATE, WEBHOOK_TEST_RATE } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { createIntegrationSchema, jiraChoicesSchema, updateIntegrationSchema } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

export interface IntegrationDeps {
  /** The key credentials are sealed with (the DNS connections' key). */
  secrets?: SecretsKey;
  /** Queues a delivery (a test) of a workspace (`tenant`); without it, 'Send a test' answers 503. */
  enqueue?: (deliveryId: string, tenant: string) => Promise<void>;
  urls?: IntegrationUrls;
}

/**
 * The workspace's trackers and pagers: connect, list, change, remove, test, the delivery log, and
 * the choices a Jira site offers the connect form.
 */
export function integrationRoutes(
  db: Db,
  auth: AuthDeps | undefined,
  deps: IntegrationDeps | undefined,
  now: () => Date,
) {
  // Each call that makes our server contact the service an integration names: one count per account.
  const outsideCall = (c: Parameters<typeof countRequest>[0], ctx: WorkspaceContext) =>
    countRequest(c, db, `${INTEGRATION_CALL_RATE.name}:${ctx.actor.userId}`, INTEGRATION_CALL_RATE);
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      return c.json({ integrations: await listIntegrations(db, await sessionContext(db, c)) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, createIntegrationSchema);
      const ctx = await sessionContext(db, c);
      await outsideCall(c, ctx);
      const integration = await createIntegration(
        db,
        deps?.secrets,
        ctx,
        body,
        deps?.urls ?? DEFAULT_INTEGRATION_URLS,
        now(),
      );
      return c.json({ integration }, 201);
    })
    .post('/jira/choices', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, jiraChoicesSchema);
      const ctx = await sessionContext(db, c);
      const choices = await listJiraChoices(ctx, body, deps?.urls ?? DEFAULT_INTEGRATION_URLS, () =>
        outsideCall(c, ctx),
      );
      return c.json(choices);
    })
    .get('/:id', async (c) => {
      return c.json({
        integration: await getIntegration(db, await sessionContext(db, c), c.req.param('id')),
      });
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, updateIntegrationSchema);
      const ctx = await sessionContext(db, c);
      if (body.credentials) await outsideCall(c, ctx);
      const integration = await updateIntegration(
        db,
        deps?.secrets,
        ctx,
        c.req.param('id'),
        body,
        deps?.urls ?? DEFAULT_INTEGRATION_URLS,
        now(),
      );
      return c.json({ integration });
    })
    .delete('/:id', async (c) => {
      await removeIntegration(db, await sessionContext(db, c), c.req.param('id'));
      return c.body(null, 204);
    })
    .post('/:id/test', async (c) => {
      const ctx = await sessionContext(db, c);
      const delivery = await sendIntegrationTest(db, ctx, c.req.param('id'), {
        enqueue: deps?.enqueue,
        // Counted with webhook tests too, per account: 'Send a test' must not flood a service through us.
        counted: async () => {
          await outsideCall(c, ctx);
          await countRequest(c, db, `${WEBHOOK_TEST_RATE.name}:${ctx.actor.userId}`, WEBHOOK_TEST_RATE);
        },
      });
      return c.json({ delivery }, 202);
    })
    .get('/:id/deliveries', async (c) => {
      return c.json({
        deliveries: await listIntegrationDeliveries(db, await sessionContext(db, c), c.req.param('id')),
      });
    });
}
