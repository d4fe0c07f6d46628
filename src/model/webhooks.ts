import { ROLE_LABELS, type WorkspaceRole } from './workspaces.ts';

/**
 * Webhooks send the workspace's findings where whoever added them chose. When that person leaves,
 * or no longer manages webhooks, the webhook is disabled (not deleted) until an admin re-enables it.
 */
export const WEBHOOK_MESSAGES = {
  /** Why a webhook was disabled: `who` added it, then left the workspace or was removed. */
  adderGone: (who: string) => `${who}, who added it, is no longer a member of the workspace`,
  /** Why a webhook was disabled: `who` added it, then got a role below admin. */
  adderDemoted: (who: string, role: WorkspaceRole) =>
    `${who}, who added it, is no longer an admin (now ${ROLE_LABELS[role]})`,
  disabledTest: 'This webhook is disabled: re-enable it to send a test',
  httpsOnly:
    'Webhook URLs must use https://: alerts carry your findings, which plain http:// would show to anyone on the way',
  testDelivered: (status: number | null) =>
    `The test reached the webhook${status === null ? '' : `, which answered HTTP ${status}`}.`,
  testNotDelivered: (why: string) => `The test did not reach the webhook: ${why}.`,
  testNotTriedYet: 'The test is queued but was not sent yet; the delivery log will show how it went.',
  enableOnly:
    'Only true is accepted, to re-enable a disabled webhook (a webhook is turned off by removing it)',
} as const;
