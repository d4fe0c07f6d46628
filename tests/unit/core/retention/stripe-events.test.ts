import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  purgeStripeEvents,
  STRIPE_EVENT_RETENTION_DAYS,
} from '../../../../src/core/retention/stripe-events.ts';
import { type Database, queryRows } from '../../../../src/db/client.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

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
    },
  );
}
