import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema.ts';
import type { FindingRef } from '../../model/contract.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import { type AlertChanges, isEmpty } from '../alerts/alert-message.ts';
import type { Reprove } from '../alerts/proven.ts';
import { scanAlert } from '../alerts/scan-alert.ts';
import { findingKey } from '../findings/key.ts';

/** The JSON every webhook receives for a scan's changes (documented in docs/webhooks.md). */
export function changesPayload(input: {
  /** The workspace, whose findings' keys the payload carries. */
  workspaceId: string;
  domain: string;
  scanId: string;
  scanUrl: string;
  alert: AlertChanges;
}) {
  const keyed = <F extends FindingRef>(f: F): F => ({ ...f, key: findingKey(input.workspaceId, f) });
  const alert = {
    new: input.alert.new.map(keyed),
    worse: input.alert.worse.map(keyed),
    resolved: input.alert.resolved.map(keyed),
  };
  const count = (n: number, what: string) => (n ? [`${n} ${what}`] : []);
  const summary = [
    ...count(alert.new.length, 'new'),
    ...count(alert.worse.length, 'worse'),
    ...count(alert.resolved.length, 'resolved'),
  ].join(', ');
  return {
    event: 'scan.changes',
    domain: input.domain,
    scanId: input.scanId,
    scanUrl: input.scanUrl,
    // What a chat message shows (the Slack format sends only this).
    text: `DangleWatch: ${summary} on ${input.domain}. ${input.scanUrl}`,
    new: alert.new,
    worse: alert.worse,
    resolved: alert.resolved,
  };
}

/**
 * Queues one delivery per live (not disabled) webhook of the owner for a scan whose changes
 * deserve an alert; a job run twice queues nothing twice (one delivery per webhook and scan).
 */
export async function queueWebhookAlerts(
  db: Db,
  scanId: string,
  deps: {
    publicUrl: string;
    enqueue: (deliveryId: string, tenant: string) => Promise<void>;
    reprove?: Reprove;
  },
): Promise<number> {
  const found = await scanAlert(db, scanId, deps.reprove);
  if (!found?.domain.alertsWebhook || isEmpty(found.alert)) return 0;
  const hooks = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, found.scan.workspaceId), isNull(webhooks.disabledAt)));
  const payload = changesPayload({
    workspaceId: found.scan.workspaceId,
    domain: found.scan.domain,
    scanId,
    scanUrl: dashboardLink(
      deps.publicUrl,
      '/dashboard',
      { section: 'scans', scan: scanId },
      found.scan.workspaceId,
    ),
    alert: found.alert,
  });
  let queued = 0;
  for (const hook of hooks) {
    const [delivery] = await db
      .insert(webhookDeliveries)
      .values({ webhookId: hook.id, scanId, kind: 'changes', payload })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    if (!delivery) continue;
    await deps.enqueue(delivery.id, found.scan.workspaceId);
    queued += 1;
  }
  return queued;
}
