import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { deliverIntegration, type IntegrationDeliveryDeps } from '../../core/integrations/deliver.ts';
import { claimTicketDeliveries } from '../../core/integrations/tickets.ts';
import type { Db } from '../../db/client.ts';

export const DELIVER_INTEGRATION = 'deliver-integration';
/** Integration deliveries one worker process makes at once (one per workspace at most). */
const INTEGRATION_DELIVERY_CONCURRENCY = 4;

const DeliverIntegrationPayload = z.object({ deliveryId: z.string().min(1) });

/** Queues a delivery of each ticket whose state changed and is not delivered or queued yet. */
export function ticketDispatcher(db: Db, enqueue: (deliveryId: string, tenant: string) => Promise<void>) {
  return async () => {
    for (const delivery of await claimTicketDeliveries(db)) await enqueue(delivery.id, delivery.workspaceId);
  };
}

export async function registerDeliverIntegration(
  boss: PgBoss,
  db: Db,
  deps: Omit<IntegrationDeliveryDeps, 'logger'>,
  logger: Logger,
): Promise<void> {
  // One workspace's deliveries one at a time: a tracker sees its tickets' changes in order.
  await boss.work(
    DELIVER_INTEGRATION,
    {
      localConcurrency: INTEGRATION_DELIVERY_CONCURRENCY,
      localGroupConcurrency: 1,
      pollingIntervalSeconds: 0.5,
    },
    async ([job]) => {
      if (!job) return;
      const { deliveryId } = DeliverIntegrationPayload.parse(job.data);
      const outcome = await deliverIntegration(db, deliveryId, { ...deps, logger });
      // Thrown so that pg-boss retries it with its backoff (the queue's policy).
      if (outcome === 'retry') throw new Error('integration delivery will be retried');
    },
  );
}
