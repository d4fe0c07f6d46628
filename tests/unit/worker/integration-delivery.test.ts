// The worker delivers what an integration's services queue: a test item, through the job queue.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createIntegration,
  getIntegration,
  sendIntegrationTest,
} from '../../../src/core/integrations/integrations.ts';
import { DEFAULT_INTEGRATION_URLS } from '../../../src/core/integrations/targets.ts';
import type { Database } from '../../../src/db/client.ts';
import { integrations, users } from '../../../src/db/schema.ts';
import { type JobQueue, startWorker } from '../../../src/worker/queue.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../fixtures/trackers/pagerduty.ts';
import { personalContext } from '../../helpers/context.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { until } from '../../helpers/until.ts';

const ROUTING_KEY = 'W'.repeat(32);

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `integration delivery by the worker on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let worker: JobQueue;
      let pd: PagerDutyFixture;
      const secrets = { key: randomBytes(32) };
      const ctx = personalContext('u-int-worker', { tier: 'free', email: 'ops@acme.com' });

      beforeAll(async () => {
        database = await backend.open();
        pd = await startPagerDuty();
        pd.routingKeys.add(ROUTING_KEY);
        const urls = { ...DEFAULT_INTEGRATION_URLS, pagerduty: pd.url, timeoutMs: 2_000 };
        worker = await startWorker(
          database,
          pino({ level: 'silent' }),
          { allowPrivate: ['127.0.0.1'] },
          undefined,
          undefined,
          undefined,
          undefined,
          { secrets, urls },
        );
        await database.db
          .insert(users)
          .values({ id: 'u-int-worker', email: 'ops@acme.com', provider: 'google' });
        await createIntegration(
          database.db,
          secrets,
          ctx,
          { kind: 'pagerduty', minStatus: 'likely', settings: {}, credentials: { routingKey: ROUTING_KEY } },
          urls,
          new Date(),
        );
      });
      afterAll(async () => {
        await worker?.stop();
        await pd?.close();
        await database?.close();
      });

      it("'Send a test' is delivered by the worker: a dw-test trigger and its resolve, and the view says so", async () => {
        const [integration] = await database.db.select().from(integrations);
        const id = integration?.id ?? '';
        const before = pd.alerts.size;
        await sendIntegrationTest(database.db, ctx, id, {
          enqueue: worker.enqueueIntegration,
          counted: async () => {},
        });
        const last = await until(
          async () => (await getIntegration(database.db, ctx, id)).lastDelivery ?? undefined,
          20_000,
        );
        expect(last).toMatchObject({ ok: true, error: null });
        const tests = [...pd.alerts.entries()].filter(([k]) => k.startsWith('dw-test-'));
        expect(pd.alerts.size).toBe(before + 1);
        expect(tests.every(([, a]) => a.status === 'resolved')).toBe(true);
      });
    },
  );
}
