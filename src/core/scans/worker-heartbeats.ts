import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { workerHeartbeats } from '../../db/schema.ts';

/** A worker process says it is alive; the scan health check reads the latest (latestWorkerHeartbeat). */
export async function recordWorkerHeartbeat(db: Db, workerId: string, now = new Date()): Promise<void> {
  await db
    .insert(workerHeartbeats)
    .values({ id: workerId, seenAt: now })
    .onConflictDoUpdate({ target: workerHeartbeats.id, set: { seenAt: now } });
}

/** A worker process that stops says so, rather than look alive until its heartbeat goes stale. */
export async function forgetWorkerHeartbeat(db: Db, workerId: string): Promise<void> {
  await db.delete(workerHeartbeats).where(eq(workerHeartbeats.id, workerId));
}
