import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type AlertDeps, sendScanAlert } from '../../core/alerts/send-scan-alert.ts';
import { queueWebhookAlerts } from '../../core/webhooks/scan-changes.ts';
import type { Db } from '../../db/client.ts';

export const SEND_ALERT = 'send-alert';

const SendAlertPayload = z.object({ scanId: z.string().min(1) });

/** A completed scan's changes: a delivery queued per webhook, then the e-mails. */
export async function registerSendAlert(
  boss: PgBoss,
  db: Db,
  alerts: AlertDeps,
  enqueueDelivery: (deliveryId: string, tenant: string) => Promise<void>,
  logger: Logger,
): Promise<void> {
  await boss.work(SEND_ALERT, async ([job]) => {
    if (!job) return;
    const { scanId } = SendAlertPayload.parse(job.data);
    await queueWebhookAlerts(db, scanId, {
      publicUrl: alerts.publicUrl,
      enqueue: enqueueDelivery,
      reprove: alerts.reprove,
    });
    await sendScanAlert(db, scanId, alerts, logger);
  });
}
