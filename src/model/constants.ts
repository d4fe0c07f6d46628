/** The dashboard's constants; browser and server read them here. */

/** Longest label of a DNS connection (POST /api/dns-connections). */
export const CONNECTION_LABEL_MAX = 100;
/** Longest note saying why a finding's risk is accepted. */
export const RISK_NOTE_MAX = 500;

/** Scans per page of GET /scan/api/v1/scans and of the Scans screen ('Load More Scans'). */
export const SCANS_PAGE_SIZE = 10;
/** Largest `limit` GET /scan/api/v1/scans accepts. */
export const SCANS_MAX_PAGE_SIZE = 100;
/** Records per page of GET /api/domains/{id}/records, and the largest `limit` it accepts. */
export const INVENTORY_PAGE_SIZE = 100;
export const INVENTORY_MAX_PAGE_SIZE = 500;
/** The record types the inventory dialog filters by: what the zone sources hold most. */
export const INVENTORY_RECORD_TYPES = [
  'A',
  'AAAA',
  'ALIAS',
  'CAA',
  'CNAME',
  'MX',
  'NS',
  'SOA',
  'SRV',
  'TXT',
] as const;
/** 'Stale: {age}' after this long. */
export const STALE_AFTER_MS = 30 * 60_000;
/** The dashboard reloads this long after a scan is triggered. */
export const RELOAD_AFTER_SCAN_MS = 2_000;
/** How often the browser polls a running scan for progress. */
export const PROGRESS_POLL_MS = 1_000;
/** How often the worker writes a running scan's progress, at most. */
export const PROGRESS_WRITE_MS = 1_000;
/**
 * A running scan whose heartbeat (written every second while it runs) is older than this has lost
 * its worker (killed, crashed). SCAN_STALE_SECONDS overrides it.
 */
export const STALE_HEARTBEAT_MS = 90_000;
/** How often each worker looks for such scans. SCAN_REAP_INTERVAL_SECONDS overrides it. */
export const REAP_INTERVAL_MS = 60_000;
/** Scheduled scans: the next one this long after the last. */
export const SCAN_INTERVAL_MS = { daily: 24 * 60 * 60_000, weekly: 7 * 24 * 60 * 60_000 } as const;
/** Monitoring pauses when the ownership record has been missing this long. */
export const VERIFICATION_GRACE_MS = 7 * 24 * 60 * 60_000;
/** A scan the user asks for checks the ownership record again when it was last seen longer ago. */
export const OWNERSHIP_RECHECK_MS = 24 * 60 * 60_000;
/** The TXT record that proves ownership: `danglewatch-verify=<token>` at the apex. */
export const TXT_PREFIX = 'danglewatch-verify=';
/** Scans of one user running at once; more wait in the queue (no user starves the others). */
export const USER_CONCURRENT_SCANS = 2;
/** The DNS propagation note shown with the TXT record. */
export const DNS_PROPAGATION_NOTE = 'DNS changes may take up to 24 hours to propagate.';
/** The trend chart's window. */
export const TREND_DAYS = 90;
/** After 'Sync now', Settings → DNS reads the connections this often until the read shows, at most this long. */
export const SYNC_POLL_MS = 2_000;
export const SYNC_FOLLOW_MS = 60_000;
