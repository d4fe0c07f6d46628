import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRateLimits } from '../../../../src/core/retention/rate-limits.ts';
import { type Database, queryRows } from '../../../../src/db/client.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the rate-limit purge on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
      });
      afterAll(() => database?.close());

      it('deletes ended windows and keeps running ones', async () => {
        await database.db.execute(sql`insert into rate_limits (key, count, reset_at) values
        ('ended', 3, now() - interval '1 minute'), ('running', 1, now() + interval '1 minute')`);
        expect(await purgeRateLimits(database.db)).toBe(1);
        const rows = await queryRows<{ key: string }>(database.db, sql`select key from rate_limits`);
        expect(rows.map((r) => r.key)).toEqual(['running']);
      });
    },
  );
}
