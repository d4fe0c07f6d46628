import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { PURGE_RATE_LIMITS } from '../../../src/worker/jobs/purge-rate-limits.ts';
import { startWorker } from '../../../src/worker/queue.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the rate-limit purge on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
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
          expect(schedules.map((s) => s.name)).toEqual(
            expect.arrayContaining([PURGE_RATE_LIMITS, 'schedule-scans', 'purge-scans']),
          );
          // The reaper runs on each worker's own timer (seconds apart if need be), not on a cron.
          expect(schedules.map((s) => s.name)).not.toContain('reap-scans');
        } finally {
          await worker.stop();
        }
      });
    },
  );
}
