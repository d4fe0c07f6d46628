import type { WebhookDeliveryView } from '../../model/contract.ts';
import { WEBHOOK_MESSAGES } from '../../model/webhooks.ts';
import type { ToastInput } from '../toast.ts';

/** How often 'Send test' reads the delivery log, and how long it waits for the first attempt. */
export const TEST_POLL_MS = 1_000;
export const TEST_WAIT_MS = 30_000;

/**
 * The test delivery once the worker has tried it (delivered, or its first attempt failed), read
 * from the delivery log; null when it was not tried within `waitMs`.
 */
export async function firstAttempt(
  readLog: () => Promise<{ deliveries: WebhookDeliveryView[] }>,
  deliveryId: string,
  { pollMs = TEST_POLL_MS, waitMs = TEST_WAIT_MS } = {},
): Promise<WebhookDeliveryView | null> {
  const end = Date.now() + waitMs;
  for (;;) {
    const found = (await readLog()).deliveries.find((d) => d.id === deliveryId);
    if (found && (found.status !== 'pending' || found.attempts > 0)) return found;
    if (Date.now() >= end) return null;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** What 'Send test' says: how the delivery went, as the log has it, never 'sent' before it was. */
export function testResultToast(delivery: WebhookDeliveryView | null): ToastInput {
  if (!delivery) return { title: 'Test Queued', description: WEBHOOK_MESSAGES.testNotTriedYet };
  if (delivery.status === 'delivered') {
    return { title: 'Test Delivered', description: WEBHOOK_MESSAGES.testDelivered(delivery.responseStatus) };
  }
  const why = delivery.error ?? (delivery.responseStatus ? `HTTP ${delivery.responseStatus}` : 'no answer');
  return {
    title: 'Test Not Delivered',
    description: WEBHOOK_MESSAGES.testNotDelivered(why),
    variant: 'destructive',
  };
}
