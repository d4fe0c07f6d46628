import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { RUN_SCAN } from '../../../src/worker/jobs/run-scan.ts';
import { type JobQueue, startQueue } from '../../../src/worker/queue.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the scan queue on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let jobs: JobQueue;
      beforeAll(async () => {
        database = await backend.open();
        jobs = await startQueue(database, pino({ level: 'silent' }));
      });
      afterAll(async () => {
        await jobs?.stop();
        await database?.close();
      });

      it("queues a page of scans in one insert, each job with the scan queue's policy", async () => {
        const ids = [randomUUID(), randomUUID(), randomUUID()];
        await jobs.queue.enqueueMany?.(ids);
        const fetched = await jobs.boss.fetch<{ scanId: string }>(RUN_SCAN, {
          batchSize: 10,
          includeMetadata: true,
        });
        expect(fetched.map((job) => job.data.scanId).sort()).toEqual([...ids].sort());
        // Retries are the reaper's, and a scan may run for two hours (declareQueues).
        for (const job of fetched) expect(job).toMatchObject({ retryLimit: 0, expireInSeconds: 7200 });
      });
    },
  );
}
