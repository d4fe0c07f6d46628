import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../../../src/db/client.ts';
import {
  PURGE_STRIPE_EVENTS,
  purgeStripeEvents,
  STRIPE_EVENT_RETENTION_DAYS,
} from '../../../src/worker/jobs/purge-stripe-events.ts';
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

      it('forgets event ids past the replay window and keeps the recent ones', async () => {
        const days = STRIPE_EVENT_RETENTION_DAYS;
        await database.db.execute(sql`insert into stripe_events (id, type, received_at) values
          ('evt_old', 'invoice.paid', now() - make_interval(days => ${days + 1})),
          ('evt_retry_window', 'invoice.paid', now() - interval '3 days'),
          ('evt_edge', 'invoice.paid', now() - make_interval(days => ${days - 1}))`);
        expect(await purgeStripeEvents(database.db)).toBe(1);
        const rows = await queryRows<{ id: string }>(
          database.db,
          sql`select id from stripe_events order by id`,
        );
        expect(rows.map((r) => r.id)).toEqual(['evt_edge', 'evt_retry_window']);
      });

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
