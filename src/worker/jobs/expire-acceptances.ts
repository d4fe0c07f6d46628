import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AlertDeps } from '../../core/alerts/send-scan-alert.ts';
import { expireAcceptances, sendLapsedAcceptanceAlerts } from '../../core/triage/acceptance-expiry.ts';
import type { Db } from '../../db/client.ts';

export const EXPIRE_ACCEPTANCES = 'expire-acceptances';

/**
 * Every minute: accepted risks whose expiry came are open again, each told once by e-mail, and
 * their tickets are filed again (`afterwards` queues the ticket deliveries).
 */
export async function registerExpireAcceptances(
  boss: PgBoss,
  db: Db,
  alerts: AlertDeps | undefined,
  logger: Logger,
  afterwards: () => Promise<void> = async () => {},
  enqueueWebhook?: (deliveryId: string, tenant: string) => Promise<void>,
): Promise<void> {
  await boss.createQueue(EXPIRE_ACCEPTANCES);
  await boss.schedule(EXPIRE_ACCEPTANCES, '* * * * *');
  await boss.work(EXPIRE_ACCEPTANCES, async () => {
    const ended = await expireAcceptances(db, new Date());
    if (ended) logger.info({ ended }, 'accepted risks expired');
    if (alerts) await sendLapsedAcceptanceAlerts(db, { ...alerts, enqueueWebhook }, logger);
    await afterwards();
  });
}
