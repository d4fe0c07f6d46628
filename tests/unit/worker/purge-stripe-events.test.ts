import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { PURGE_STRIPE_EVENTS } from '../../../src/worker/jobs/purge-stripe-events.ts';
import { startWorker } from '../../../src/worker/queue.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the Stripe event purge on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
      });
      afterAll(() => database?.close());

      it('is scheduled on the durable queue when the worker starts', async () => {
        const worker = await startWorker(database, pino({ level: 'silent' }), {});
        try {
          const schedules = await worker.boss.getSchedules();
          expect(schedules.map((s) => s.name)).toContain(PURGE_STRIPE_EVENTS);
        } finally {
          await worker.stop();
        }
      });
    },
  );
}
