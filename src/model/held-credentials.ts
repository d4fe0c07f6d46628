/**
 * Every kind of credential DangleWatch holds of a customer's own accounts, said once for the Data
 * tab and for the privacy, data-processing and trust pages, so that none of them drifts from what
 * the Settings tabs store. One entry per kind of connection (src/core/connections/kinds.ts; a test
 * holds the two lists together): what it is, what it lets us do, how it is kept and how it goes.
 */
export type HeldCredentialKind = 'dns' | 'cloud' | 'integration' | 'webhook';

export interface HeldCredential {
  kind: HeldCredentialKind;
  /** What a reader calls it. */
  name: string;
  /** Where an admin adds and removes it. */
  tab: string;
  /** What it is, by provider. */
  what: string;
  /** What it lets DangleWatch do in the customer's account, and nothing more. */
  can: string;
  /** How it is kept. */
  kept: string;
  /** How it goes. */
  removed: string;
}

const SEALED =
  'Sealed with AES-256-GCM under a server key kept outside the database, bound to its workspace, and never shown again, not even to you.';

export const HELD_CREDENTIALS: readonly HeldCredential[] = [
  {
    kind: 'dns',
    name: 'DNS provider credentials',
    tab: 'Settings → DNS',
    what: 'A Cloudflare or DigitalOcean API token, an AWS access key or a Google Cloud service-account key.',
    can: 'Read your zones, so every record is checked. Read-only: it cannot change a record.',
    kept: SEALED,
    removed: 'Removing the connection deletes it at once; revoke it at your provider as well to be sure.',
  },
  {
    kind: 'cloud',
    name: 'Cloud account credentials',
    tab: 'Settings → Cloud',
    what: 'An AWS access key, an Azure service principal, a Google Cloud service-account key or a DigitalOcean token.',
    can: 'List the addresses and resources your accounts hold, so a record pointing at one you no longer own is proven. Read-only: it cannot create, change or delete anything.',
    kept: SEALED,
    removed: 'Removing the account deletes it at once; revoke it at your provider as well to be sure.',
  },
  {
    kind: 'integration',
    name: 'Tracker and pager tokens',
    tab: 'Settings → Integrations',
    what: 'A GitHub token, a Jira API token with its Atlassian e-mail, a Linear API key or a PagerDuty routing key.',
    can: 'Write: open an issue or an incident for each finding, and close it when the finding is fixed, in the repository, project, team or service you chose. A token may reach further than that if your provider grants it more, so give one limited to that place.',
    kept: SEALED,
    removed: 'Removing the integration deletes it at once; revoke it at your provider as well to be sure.',
  },
  {
    kind: 'webhook',
    name: 'Webhook addresses and signing secrets',
    tab: 'Settings → Alerts',
    what: 'The address you give (for Slack, Teams or Discord the address itself lets whoever has it post to that channel), and a signing secret we make for it.',
    can: 'Post change alerts to that address, signed with the secret so your endpoint can tell they are ours.',
    kept: 'Kept as given in the database, not sealed: admins of the workspace see the secret in Settings → Alerts, to check our signature.',
    removed:
      'Removing the webhook deletes both at once; make a new Slack, Teams or Discord address if you think one leaked.',
  },
];

/** The sentence before the list, on every page that shows it. */
export const HELD_CREDENTIALS_INTRO =
  'We hold only the credentials an admin of your workspace gives us, and only these kinds. Deleting your account deletes all of them at once.';
