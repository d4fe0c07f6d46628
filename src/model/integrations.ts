import type { DisabledView } from './connections.ts';
import type { FindingStatus } from './contract.ts';

/** Where a workspace's findings can go: a pager, or a tracker with one ticket per finding. */
export const INTEGRATION_KINDS = ['pagerduty', 'github', 'jira', 'linear'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

export const INTEGRATION_LABELS: Record<IntegrationKind, string> = {
  pagerduty: 'PagerDuty',
  github: 'GitHub Issues',
  jira: 'Jira Cloud',
  linear: 'Linear',
};

/** The least status that files a ticket unless the admin says otherwise. */
export const DEFAULT_INTEGRATION_MIN_STATUS: FindingStatus = 'likely';

/** An integration as Settings lists it (GET /api/integrations): never its credential. */
export interface IntegrationView {
  id: string;
  kind: IntegrationKind;
  label: string;
  minStatus: FindingStatus;
  settings: Record<string, string>;
  /** The credential's last four characters, enough to tell two apart. */
  credentialHint: string;
  createdAt: string;
  /** The last delivery attempted (one failed and waiting for its retry counts as failed). */
  lastDelivery: { at: string; ok: boolean; error: string | null } | null;
  /**
   * Set while deliveries fail: the newest failure, when no finding's ticket was delivered since
   * (a test that passed since does not clear it). `error` is the sentence with the service's words;
   * `retrying` while that delivery waits to be tried again; `test` when it was "Send a test".
   */
  failing: { at: string; error: string; retrying: boolean; test: boolean } | null;
  /**
   * Set while it is disabled (the member who connected it, or last re-enabled it, left the workspace
   * or is no longer an admin): it gets no deliveries until an admin re-enables it (PATCH
   * `{ "enabled": true }`).
   */
  disabled: DisabledView;
  /** The member who answers for it (connected it, or last re-enabled it); null when nobody does. */
  answeredBy: string | null;
}

/** One delivery of the log (GET /api/integrations/{id}/deliveries). */
export interface IntegrationDeliveryView {
  id: string;
  /** The finding's key; null for a test. */
  findingKey: string | null;
  /** The name of the record the finding is about, as the log shows it; null for a test or a finding no longer kept. */
  subject: string | null;
  action: 'open' | 'closed' | 'test';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery as the log lists it: what was done, for which record, and how it went. */
export function deliveryWords(delivery: IntegrationDeliveryView): string {
  const what =
    delivery.action === 'test'
      ? 'Test item'
      : `${delivery.action === 'open' ? 'Opened' : 'Closed'} for ${delivery.subject ?? 'a finding no longer listed'}`;
  const status = delivery.status === 'pending' ? 'waiting to be sent' : delivery.status;
  const attempts = delivery.attempts > 1 ? ` after ${delivery.attempts} attempts` : '';
  return `${what} · ${status}${attempts}${delivery.error ? `: ${delivery.error}` : ''}`;
}

/** The title of the one item "Send a test" files. */
export const TEST_ITEM_TITLE = 'DangleWatch test';

/** What a Jira site offers the connect form: its projects, and the chosen project's issue types and done statuses. */
export interface JiraChoices {
  projects: { key: string; name: string }[];
  issueTypes: { id: string; name: string }[];
  transitions: { name: string }[];
}
