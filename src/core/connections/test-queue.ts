import { ServiceError } from '../errors.ts';
import { assertLive } from './answerable.ts';

/** Where a 'Send a test' goes: `enqueue` (none on a server that delivers nothing) after `counted`. */
export interface TestQueue {
  enqueue: ((deliveryId: string, tenant: string) => Promise<void>) | undefined;
  counted: () => Promise<void>;
}

const NOT_RUNNING = {
  integration: {
    code: 'INTEGRATIONS_UNAVAILABLE',
    message: 'Integration delivery is not running on this server',
  },
  webhook: { code: 'WEBHOOKS_UNAVAILABLE', message: 'Webhook delivery is not running on this server' },
} as const;

/**
 * Queues one test delivery to a live integration or webhook: refused where nothing delivers, then
 * counted against the caller's rate, then refused while it is disabled; `insert` makes the
 * delivery, queued for the workspace (`tenant`).
 */
export async function queueTest<T extends { id: string }>(
  kind: keyof typeof NOT_RUNNING,
  row: { disabledAt: Date | null },
  tenant: string,
  queue: TestQueue,
  insert: () => Promise<T | undefined>,
): Promise<T> {
  const { enqueue } = queue;
  if (!enqueue) throw new ServiceError('unavailable', NOT_RUNNING[kind].code, NOT_RUNNING[kind].message);
  await queue.counted();
  assertLive(kind, row);
  const made = await insert();
  if (!made) throw new Error('insert returned no delivery');
  await enqueue(made.id, tenant);
  return made;
}
