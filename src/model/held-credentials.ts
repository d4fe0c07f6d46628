/**
 * What DangleWatch holds of a customer's own accounts, said once for the Data tab and for the trust
 * and legal pages, so that none of them drifts from what the DNS and Cloud tabs store: the read-only
 * credentials of the DNS providers and cloud accounts an admin connects, sealed
 * (src/core/connections/secrets.ts).
 */
export const HELD_CREDENTIALS = {
  what: 'The only credentials we hold are those of the DNS providers you connect in Settings → DNS (a Cloudflare or DigitalOcean API token, an AWS access key, a Google Cloud service-account key), to read your zones, and of the cloud accounts you connect in Settings → Cloud (an AWS access key, an Azure service principal, a Google Cloud service-account key, a DigitalOcean token), to list the addresses and resources they hold; all with read-only permissions.',
  sealed:
    'Each is sealed with AES-256-GCM under a server key kept outside the database, bound to its workspace, and never shown again, not even to you.',
  revoke:
    'Removing the connection in Settings → DNS, or the account in Settings → Cloud, deletes it at once; to be sure, revoke it at your provider as well.',
} as const;

/** The three sentences as one paragraph. */
export const HELD_CREDENTIALS_TEXT = `${HELD_CREDENTIALS.what} ${HELD_CREDENTIALS.sealed} ${HELD_CREDENTIALS.revoke}`;
