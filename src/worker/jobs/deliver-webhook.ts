import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { EngineSettings } from '../../core/engine-settings.ts';
import { deliverWebhook } from '../../core/webhooks/deliver.ts';
import type { Db } from '../../db/client.ts';

export const DELIVER_WEBHOOK = 'deliver-webhook';
/** Webhook deliveries one worker process makes at once (one per account at most). */
const WEBHOOK_DELIVERY_CONCURRENCY = 8;

const DeliverWebhookPayload = z.object({ deliveryId: z.string().min(1) });

export async function registerDeliverWebhook(
  boss: PgBoss,
  db: Db,
  network: Pick<EngineSettings, 'allowPrivate' | 'resolvers'>,
  logger: Logger,
): Promise<void> {
  // Several receivers at once, and never more than one of an account's: a receiver that takes its
  // full timeout on every attempt holds up its own account's alerts, not everyone's.
  await boss.work(
    DELIVER_WEBHOOK,
    { localConcurrency: WEBHOOK_DELIVERY_CONCURRENCY, localGroupConcurrency: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      if (!job) return;
      const { deliveryId } = DeliverWebhookPayload.parse(job.data);
      const outcome = await deliverWebhook(db, deliveryId, { ...network, logger });
      // Thrown so that pg-boss retries it with its backoff (the queue's policy).
      if (outcome === 'retry') throw new Error('webhook delivery will be retried');
    },
  );
}
