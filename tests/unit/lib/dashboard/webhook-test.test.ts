import { describe, expect, it } from 'vitest';
import { testResultToast } from '../../../../src/lib/dashboard/webhook-test.ts';
import type { WebhookDeliveryView } from '../../../../src/model/contract.ts';

const delivery = (fields: Partial<WebhookDeliveryView>): WebhookDeliveryView => ({
  id: 'd1',
  webhookId: 'w1',
  kind: 'test',
  status: 'pending',
  attempts: 0,
  responseStatus: null,
  error: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...fields,
});

describe("'Send test' says how the delivery went", () => {
  it('a delivered test names the answer', () => {
    expect(testResultToast(delivery({ status: 'delivered', attempts: 1, responseStatus: 204 }))).toEqual({
      title: 'Test Delivered',
      description: 'The test reached the webhook, which answered HTTP 204.',
    });
  });

  it('regression: a failed first attempt is no "Test Sent": it says why, as an error', () => {
    const answer = testResultToast(
      delivery({
        status: 'pending',
        attempts: 1,
        responseStatus: 404,
        error: 'the endpoint answered HTTP 404',
      }),
    );
    expect(answer).toEqual({
      title: 'Test Not Delivered',
      description: 'The test did not reach the webhook: the endpoint answered HTTP 404.',
      variant: 'destructive',
    });
  });

  it('a test not tried yet says so, without claiming it arrived', () => {
    expect(testResultToast(null).title).toBe('Test Queued');
    expect(testResultToast(null).description).toMatch(/not sent yet/);
  });
});
