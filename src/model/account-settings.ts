/**
 * The account's preferences, PATCH /auth/settings `{ settings }` (the path is fixed; the keys are
 * ours). These keys and no others: the server refuses any other with 400 naming it, so the
 * stored object never collects junk. They are stored for the account and merged key by key; no
 * screen reads them yet (per-domain alerts live on each domain, see DomainView.alerts).
 */
export const SETTINGS_DIGESTS = ['off', 'daily', 'weekly'] as const;
export const SETTINGS_THEMES = ['system', 'light', 'dark'] as const;

export interface AccountSettings {
  /** E-mail alerts for the account as a whole. */
  emailAlerts?: boolean;
  /** A summary e-mail of all domains. */
  digest?: (typeof SETTINGS_DIGESTS)[number];
  /** The dashboard's colour scheme. */
  theme?: (typeof SETTINGS_THEMES)[number];
}
