/**
 * Every request limit of the API in one place: body sizes (refused with 413 before the body is
 * read) and the database-backed rate limits (429 with X-RateLimit-Reset and Retry-After).
 */

/** Request bodies, in KB. Small JSON objects only: nothing the API takes is bigger. */
export const BODY_LIMIT_KB = {
  /** A name, a note, a URL: the profile, the mailing-list sign-up, a finding's note, a webhook. */
  small: 4,
  /** A domain with its scan configuration, a scan request, the account settings. */
  standard: 8,
  /** A Stripe webhook event: Stripe's own objects, larger than anything a user sends. */
  stripeEvent: 512,
  /** A DNS provider's credential (a service-account JSON is the largest). */
  connection: 80,
  /** A BIND zone file uploaded as a domain's inventory (some 100,000 records). */
  zoneFile: 5 * 1024,
} as const;

/** Mailing-list sign-ups per client address: the public form is the one unauthenticated write. */
export const MAILING_LIST_RATE = { name: 'mailing-list', limit: 10, windowSeconds: 3600 } as const;

/**
 * Invitation previews per client address: public, token-scoped reads of who invited whom where; a
 * person opens a link a few times, a guesser of 32-byte tokens gets nowhere faster.
 */
export const INVITATION_PREVIEW_RATE = {
  name: 'invitation-preview',
  limit: 30,
  windowSeconds: 3600,
} as const;

/** Webhooks per workspace. */
export const WEBHOOK_LIMIT = 5;
/**
 * Outside accounts per workspace, of each kind: more than a team connects in earnest, few enough
 * that nobody stores credentials (and their scheduled reads, deliveries or syncs) by the hundred.
 */
export const INTEGRATION_LIMIT = 10;
export const DNS_CONNECTION_LIMIT = 10;
export const CLOUD_ACCOUNT_LIMIT = 10;

/** 'Send test' deliveries per account: enough to set up a few receivers, too few to flood one. */
export const WEBHOOK_TEST_RATE = { name: 'webhook-test', limit: 10, windowSeconds: 3600 } as const;

/**
 * The public API (/api/v1, API keys): each user's calls per hour are their plan's
 * `limits.apiCallsPerHour` (src/model/plans.ts; 0 means no API), counted in one fixed window of this
 * length for all of the user's keys, in the database so that every API process shares the count.
 */
export const API_RATE_WINDOW_SECONDS = 3600;

/** Active (unrevoked) API keys per account: enough for one per script or environment. */
export const API_KEY_LIMIT = 10;

/**
 * A key's lastUsedAt is rewritten only when it is older than this, so a busy script costs one
 * write a minute rather than one per call; the settings screen shows it to the minute anyway.
 */
export const API_KEY_LAST_USED_RESOLUTION_SECONDS = 60;
/** Invoices the plan tab lists; 'View All Invoices' opens the billing portal for the rest. */
export const INVOICES_SHOWN = 5;

/**
 * Calls that make our server call a DNS provider for the caller (connect, monitor a zone, sync
 * now), per account: enough to set up every zone, too few to use us against a provider.
 */
export const DNS_CONNECTION_RATE = { name: 'dns-connection', limit: 60, windowSeconds: 3600 } as const;

/**
 * The other DNS-inventory calls, per account: listing connections and reading a zone's records
 * (the settings screen reads the list every 2 s while it follows a sync), removing a connection,
 * and uploading a zone file (a parse of up to 5 MB each).
 */
export const DNS_READ_RATE = { name: 'dns-read', limit: 1200, windowSeconds: 3600 } as const;
/**
 * Calls that make our server call a cloud for the caller (connect, sync now), per account, as for
 * DNS connections: enough to connect every account, too few to use us against a cloud.
 */
export const CLOUD_ACCOUNT_RATE = { name: 'cloud-account', limit: 60, windowSeconds: 3600 } as const;
/**
 * Every call that makes our server contact the host an integration names, per account, one count
 * for all of them: connecting, replacing a credential, 'Send a test', and asking a Jira site for its
 * projects, issue types and statuses while filling the connect form. A form takes a few; the limit
 * keeps our server from being used to probe a site.
 */
export const INTEGRATION_CALL_RATE = {
  name: 'integration-call',
  limit: 120,
  windowSeconds: 3600,
} as const;
/** Addresses and resources one cloud account's inventory keeps at most; a read beyond it fails whole. */
export const CLOUD_INVENTORY_LIMIT = 200_000;
export const ZONE_FILE_RATE = { name: 'zone-file', limit: 30, windowSeconds: 3600 } as const;

/**
 * Records one domain's inventory holds at most, whether uploaded or synced: a zone above it is
 * refused whole (413 for an upload, a sync error for a provider) and the last good inventory stays.
 * Each stored read of a zone holds all its keys in memory and its rows in one transaction.
 */
export const INVENTORY_RECORD_LIMIT = 100_000;

/**
 * Team workspaces an account may create per hour, whatever its plan: each one is rows, a Stripe
 * customer to be, and on Free a share of the owner's allowance, so a script must not mint them.
 */
export const WORKSPACE_CREATE_RATE = { name: 'workspace-create', limit: 10, windowSeconds: 3600 } as const;

/** Invitation e-mails an account may send per hour, into all its workspaces. */
export const INVITATION_RATE = { name: 'invitation', limit: 30, windowSeconds: 3600 } as const;

/**
 * The scheduling pass (every minute, on one worker at a time). It reads due domains a page at a
 * time, most overdue first, and starts a page's scans in one transaction and one job insert.
 */
export const SCHEDULE_PAGE_SIZE = 500;
/**
 * How long one pass may go on: less than the minute between passes, so passes never pile up. The
 * page it is on when the time is up ends; the domains it did not reach stay due for the next pass.
 */
export const SCHEDULE_PASS_BUDGET_MS = 45_000;
/**
 * How long a pass's claim on the schedule lasts without renewal (it renews at each page): a worker
 * that dies in a pass holds up the schedule this long at most. More than a page can take, the last
 * ownership checks included (SCHEDULE_PASS_BUDGET_MS, then one check's timeouts).
 */
export const SCHEDULE_LEASE_MS = 90_000;
/**
 * Ownership re-checks (TXT lookups) of due domains in flight at once: a slow nameserver holds up
 * one place, not the pass, and a busy pass does not flood the resolvers (one query each).
 */
export const OWNERSHIP_CHECKS_AT_ONCE = 32;

/**
 * `danglewatch fingerprints update <url>`: can-i-take-over-xyz's fingerprints.json is about 60 KB;
 * an answer past these bounds is refused, not read on.
 */
export const FINGERPRINTS_DOWNLOAD = { maxBytes: 4 * 1024 * 1024, timeoutMs: 60_000 } as const;
