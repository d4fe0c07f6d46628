/**
 * What DangleWatch holds of a customer's own accounts, said once for the Data tab and for the trust
 * and legal pages, so that none of them drifts from what the DNS tab stores: the read-only
 * credentials of the DNS providers an admin connects, sealed (src/core/dns-connections/secrets.ts).
 */
export const HELD_CREDENTIALS = {
  what: 'The only credentials we hold are those of the DNS providers you connect in Settings → DNS (a Cloudflare or DigitalOcean API token, an AWS access key, a Google Cloud service-account key), with read-only permissions, to read your zones.',
  sealed:
    'Each is sealed with AES-256-GCM under a server key kept outside the database, bound to its workspace, and never shown again, not even to you.',
  revoke:
    'Removing the connection in Settings → DNS deletes it at once; to be sure, revoke it at your provider as well.',
} as const;

/** The three sentences as one paragraph. */
export const HELD_CREDENTIALS_TEXT = `${HELD_CREDENTIALS.what} ${HELD_CREDENTIALS.sealed} ${HELD_CREDENTIALS.revoke}`;
