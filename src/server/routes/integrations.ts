import { Hono } from 'hono';
import type { SecretsKey } from '../../core/dns-connections/secrets.ts';
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
import { BODY_LIMIT_KB, INTEGRATION_CHOICES_RATE, WEBHOOK_TEST_RATE } from '../../core/limits.ts';
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
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      return c.json({ integrations: await listIntegrations(db, await sessionContext(db, c)) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, createIntegrationSchema);
      const integration = await createIntegration(
        db,
        deps?.secrets,
        await sessionContext(db, c),
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
        countRequest(c, db, `${INTEGRATION_CHOICES_RATE.name}:${ctx.actor.userId}`, INTEGRATION_CHOICES_RATE),
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
      const integration = await updateIntegration(
        db,
        deps?.secrets,
        await sessionContext(db, c),
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
        // Counted with webhook tests, per account: 'Send a test' must not flood a service through us.
        counted: () =>
          countRequest(c, db, `${WEBHOOK_TEST_RATE.name}:${ctx.actor.userId}`, WEBHOOK_TEST_RATE),
      });
      return c.json({ delivery }, 202);
    })
    .get('/:id/deliveries', async (c) => {
      return c.json({
        deliveries: await listIntegrationDeliveries(db, await sessionContext(db, c), c.req.param('id')),
      });
    });
}
