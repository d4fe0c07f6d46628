/**
 * Webhooks send the workspace's findings where whoever added them chose; when that person leaves,
 * the webhook is disabled as every connection is (CONNECTION_MESSAGES in connections.ts).
 */
export const WEBHOOK_MESSAGES = {
  disabledTest: 'This webhook is disabled: re-enable it to send a test',
  httpsOnly:
    'Webhook URLs must use https://: alerts carry your findings, which plain http:// would show to anyone on the way',
  testDelivered: (status: number | null) =>
    `The test reached the webhook${status === null ? '' : `, which answered HTTP ${status}`}.`,
  testNotDelivered: (why: string) => `The test did not reach the webhook: ${why}.`,
  testNotTriedYet: 'The test is queued but was not sent yet; the delivery log will show how it went.',
} as const;
