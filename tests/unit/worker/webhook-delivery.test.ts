// One worker serves every account's webhooks: an account whose receiver answers slowly must delay
// only its own alerts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { users, webhookDeliveries, webhooks } from '../../../src/db/schema.ts';
import { type JobQueue, startWorker } from '../../../src/worker/queue.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import { until } from '../../helpers/until.ts';

const SLOW_MS = 1_500;
const SLOW_DELIVERIES = 4;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `webhook delivery fairness on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let worker: JobQueue;
      let receiver: http.Server;
      let base: string;
      let slowInFlight = 0;
      let slowMostAtOnce = 0;

      beforeAll(async () => {
        database = await backend.open();
        receiver = http.createServer((req, res) => {
          req.resume();
          if (req.url === '/slow') {
            slowInFlight++;
            slowMostAtOnce = Math.max(slowMostAtOnce, slowInFlight);
            setTimeout(() => {
              slowInFlight--;
              res.writeHead(200).end();
            }, SLOW_MS);
            return;
          }
          res.writeHead(200).end();
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
        worker = await startWorker(database, pino({ level: 'silent' }), { allowPrivate: ['127.0.0.1'] });
      });
      afterAll(async () => {
        await worker?.stop();
        await new Promise((resolve) => receiver?.close(resolve));
        await database?.close();
      });

      const account = async (id: string, path: string) => {
        await database.db.insert(users).values({ id, provider: 'google' });
        const [hook] = await database.db
          .insert(webhooks)
          .values({ workspaceId: id, url: `${base}${path}`, format: 'json', secret: 'whsec_fairness' })
          .returning();
        return hook?.id as string;
      };
      const delivery = async (webhookId: string) => {
        const [row] = await database.db
          .insert(webhookDeliveries)
          .values({ webhookId, kind: 'test', payload: { event: 'test' } })
          .returning();
        return row?.id as string;
      };
      const status = async (id: string) =>
        (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]?.status;

      it("regression: a slow receiver's backlog does not hold up another account's alert", async () => {
        const slowHook = await account('slow-tenant', '/slow');
        const fastHook = await account('fast-tenant', '/fast');
        const slow: string[] = [];
        for (let i = 0; i < SLOW_DELIVERIES; i++) {
          const id = await delivery(slowHook);
          slow.push(id);
          await worker.enqueueDelivery(id, 'slow-tenant');
        }
        const fast = await delivery(fastHook);
        await worker.enqueueDelivery(fast, 'fast-tenant');

        await until(async () => ((await status(fast)) === 'delivered' ? true : undefined), 20_000);
        // The fast account's alert went out while the slow account's backlog was still being worked.
        const slowDone = (await Promise.all(slow.map(status))).filter((s) => s === 'delivered');
        expect(slowDone.length).toBeLessThan(SLOW_DELIVERIES);

        await until(
          async () =>
            (await Promise.all(slow.map(status))).every((s) => s === 'delivered') ? true : undefined,
          30_000,
        );
        // One at a time per account: its receiver never had two of our requests at once.
        expect(slowMostAtOnce).toBe(1);
      }, 60_000);
    },
  );
}
