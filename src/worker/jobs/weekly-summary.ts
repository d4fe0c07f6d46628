import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AlertDeps } from '../../core/alerts/send-scan-alert.ts';
import { sendWeeklySummaries } from '../../core/alerts/weekly-summary.ts';
import type { Db } from '../../db/client.ts';

export const WEEKLY_SUMMARY = 'weekly-summary';

/** Mondays at 08:00 UTC: each workspace hears of its accepted risks that end within the week. */
export async function registerWeeklySummary(
  boss: PgBoss,
  db: Db,
  alerts: AlertDeps,
  logger: Logger,
): Promise<void> {
  await boss.createQueue(WEEKLY_SUMMARY);
  await boss.schedule(WEEKLY_SUMMARY, '0 8 * * 1');
  await boss.work(WEEKLY_SUMMARY, async () => {
    await sendWeeklySummaries(db, alerts, new Date(), logger);
  });
}
