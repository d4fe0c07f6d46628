import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  DEFAULT_ALERT_SETTINGS,
  type FindingChanges,
  type FindingStatus,
  type FindingView,
  type FingerprintSourceView,
  type Proof,
  type ScanConfig,
  type ScanErrorView,
  type ScanProgress,
  type ScanRunConfig,
} from '../model/contract.ts';

/** An acceptance that ended, waiting for its alert. */
export interface LapsedAcceptance {
  by: string | null;
  /** An ISO date-time, `record-changes`, or null when none was kept. */
  until: string | null;
  at: string;
}

export const mailingListSignups = pgTable(
  'mailing_list_signups',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    source: text('source').notNull(),
    clientTimestamp: timestamp('client_timestamp', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Unique by e-mail regardless of case: the index is on lower(email).
  (t) => [uniqueIndex('mailing_list_signups_email_lower').on(sql`lower(${t.email})`)],
);

/**
 * Fixed-window rate-limit counters. Kept in the database, not in memory, so that several API
 * processes agree on how many requests a client has made.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at').on(t.resetAt)],
);

/**
 * Signed-in users, keyed by their Firebase uid. Created or refreshed by POST /auth/verify from the
 * verified ID token. Their plan is their personal workspace's (`workspaces.tier`).
 */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email'),
  displayName: text('display_name'),
  photoUrl: text('photo_url'),
  /** 'google' or 'github'. */
  provider: text('provider').notNull(),
  /** The user's primary domain (POST /auth/domain); null until set. */
  domain: text('domain'),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Workspaces own domains, scans, findings, DNS connections, webhooks and API keys. Every account
 * has a personal workspace whose id is the account's uid, created with the account by the
 * database itself (migration 0012), so no path that creates a user can leave one without it.
 */
export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  personal: boolean('personal').notNull().default(false),
  /**
   * The workspace's plan (src/model/plans.ts): the account's plan for a personal workspace. It
   * changes only from Stripe's word (src/core/billing) or by the operator, never from the browser.
   */
  tier: text('tier').notNull().default('free'),
  /** The Stripe customer made at the workspace's first checkout; null until then. */
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** The Stripe subscription the tier comes from; null on Free or when set by the operator. */
  stripeSubscriptionId: text('stripe_subscription_id'),
  /** none, active, trialing, past_due or canceled: as Stripe's webhooks last said. */
  subscriptionStatus: text('subscription_status').notNull().default('none'),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who belongs to a workspace, with which role (src/model/workspaces.ts). */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** owner, admin, member or viewer. */
    role: text('role').notNull(),
    /** This member's e-mail alerts of the workspace's changes: each member chooses. */
    alertsEmail: boolean('alerts_email').notNull().default(true),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('workspace_members_user').on(t.userId)],
);

/**
 * Invitations by e-mail: the link carries a random token, of which only a SHA-256 is kept; it works
 * once, for 7 days, for whoever signs in with that address.
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Lower case: addresses are compared without case. */
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('workspace_invitations_workspace').on(t.workspaceId)],
);

/**
 * Domains a user monitors. Ownership is proved per user with a TXT record
 * `danglewatch-verify=<verification_token>` at the apex; only verified domains are scanned.
 */
export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    /** pending, verified or failed. */
    status: text('status').notNull().default('pending'),
    verificationToken: text('verification_token').notNull(),
    scanConfig: jsonb('scan_config').$type<ScanConfig>().notNull(),
    /** The last verification failure, in words. */
    verificationError: text('verification_error'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** When a scheduled re-check first missed the ownership record; null while it is there. */
    recordMissingSince: timestamp('record_missing_since', { withTimezone: true }),
    /** Why scheduled scans stopped; null while monitoring is active. */
    pausedReason: text('paused_reason'),
    /**
     * The last time the ownership record was found (verification, the scheduler's re-check, a
     * manual scan's re-check): a manual scan checks again when it is more than a day old.
     */
    ownershipCheckedAt: timestamp('ownership_checked_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What ownership stands on while verified: 'txt' (the TXT record), 'zone' (public DNS delegates
     * the domain to the name servers a connected provider assigned to its zone) or 'shared' (the
     * proof of the same name in another workspace of the same person, `proofSourceId`); null before.
     */
    proof: text('proof'),
    /**
     * Who gave the 'txt' or 'zone' proof (the audit log's actor of its verification): their proof
     * counts for the same name in their other workspaces (`proof` 'shared'); null for a shared one.
     */
    provedBy: text('proved_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The domain whose proof a 'shared' one stands on: the same name, proven by the same person in
     * another of their workspaces. The copy lapses with it; null once that domain is gone.
     */
    proofSourceId: uuid('proof_source_id').references((): AnyPgColumn => domains.id, {
      onDelete: 'set null',
    }),
    /** Beyond the plan's number of domains (after a downgrade): kept, but not scanned. */
    overPlanLimit: boolean('over_plan_limit').notNull().default(false),
    /** When the owner chose to keep this domain within the plan; the kept ones come first. */
    keptAt: timestamp('kept_at', { withTimezone: true }),
    /** Where the zone's records (zone_records) come from: a DNS provider's id or 'zone-file'; null without. */
    inventorySource: text('inventory_source'),
    /** When the inventory was last read from its source. */
    inventoryReadAt: timestamp('inventory_read_at', { withTimezone: true }),
    /** How many records that read held: the card's summary, without reading the records. */
    inventoryRecords: integer('inventory_records').notNull().default(0),
    nextScanAt: timestamp('next_scan_at', { withTimezone: true }),
    /** E-mail alerts on changes; the one-click unsubscribe link turns them off. */
    alertsEmail: boolean('alerts_email').notNull().default(DEFAULT_ALERT_SETTINGS.email),
    /** The least serious finding status that alerts: review (everything), likely or claimable. */
    alertMinStatus: text('alert_min_status')
      .$type<FindingStatus>()
      .notNull()
      .default(DEFAULT_ALERT_SETTINGS.minStatus),
    /** Webhook alerts on changes, to every webhook of the owner. */
    alertsWebhook: boolean('alerts_webhook').notNull().default(DEFAULT_ALERT_SETTINGS.webhooks),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('domains_workspace_domain').on(t.workspaceId, t.domain),
    // The scheduler's pages: only domains it may scan, in the order it reads them (most overdue
    // first, the id breaking ties), so a page reads its own rows and no paused or pending ones.
    index('domains_due')
      .on(t.nextScanAt, t.id)
      .where(sql`${t.status} = 'verified' and ${t.pausedReason} is null and ${t.overPlanLimit} = false`),
  ],
);

/**
 * The domains whose first scan an account has had, by name: the free scan that follows a first
 * verification is given once per account and name, however often the domain is removed and added.
 */
export const firstScans = pgTable(
  'first_scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('first_scans_user_domain').on(t.userId, t.domain)],
);

/**
 * Accounts deleted on request, by Firebase uid, until the sign-in account is gone too: a request
 * made with one of its tokens in between must not create the row again.
 */
export const deletedAccounts = pgTable('deleted_accounts', {
  uid: text('uid').primaryKey(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A user's read-only credential for a DNS provider's API. The credential is stored sealed
 * (AES-256-GCM, SECRETS_KEY) and never leaves the server; the hint is its last four characters.
 */
export const dnsConnections = pgTable(
  'dns_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** cloudflare, route53, digitalocean or gcloud. */
    provider: text('provider').notNull(),
    label: text('label').notNull(),
    credentialSealed: text('credential_sealed').notNull(),
    credentialHint: text('credential_hint').notNull(),
    /** Who added it (their e-mail address, or name). */
    createdBy: text('created_by'),
    /**
     * The member who answers for it: who connected it, or last re-enabled it. Their leaving, removal,
     * account deletion or a role below admin disables it (core/connections/answerable.ts).
     */
    answeredBy: text('answered_by').references(() => users.id, { onDelete: 'set null' }),
    /** When it was disabled, and why in a sentence: it is not used until an admin re-enables it. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** The last failed read in a plain sentence; null once a read succeeds. */
    syncError: text('sync_error'),
    /** The provider's own words for it, shown under the sentence. */
    syncErrorDetail: text('sync_error_detail'),
    syncFailingSince: timestamp('sync_failing_since', { withTimezone: true }),
    /** When the owner was told that reads have been failing for days (once per failing spell). */
    failureMailedAt: timestamp('failure_mailed_at', { withTimezone: true }),
  },
  (t) => [index('dns_connections_workspace').on(t.workspaceId)],
);

/** The zones a connection's credential can read; `domainId` once the user monitors one. */
export const dnsConnectionZones = pgTable(
  'dns_connection_zones',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => dnsConnections.id, { onDelete: 'cascade' }),
    zone: text('zone').notNull(),
    domainId: uuid('domain_id').references(() => domains.id, { onDelete: 'set null' }),
    /** The last sync that found public DNS delegating the zone to this provider; null: never. */
    delegatedAt: timestamp('delegated_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('dns_connection_zones_zone').on(t.connectionId, t.zone)],
);

/** A domain's zone as last read from each of its sources: one row per record (name, type, data) and source. */
export const zoneRecords = pgTable(
  'zone_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    ttl: integer('ttl').notNull(),
    data: text('data').notNull(),
    source: text('source').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  // Each source's records are a set of their own: a record two sources hold is two rows.
  (t) => [uniqueIndex('zone_records_record').on(t.domainId, t.name, t.type, t.data, t.source)],
);

/** What each read of a zone found changed: added, changed (its TTL) or removed records, with times. */
export const zoneRecordChanges = pgTable(
  'zone_record_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** added, changed or removed. */
    change: text('change').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    ttl: integer('ttl').notNull(),
    source: text('source').notNull(),
  },
  (t) => [index('zone_record_changes_domain_at').on(t.domainId, t.at)],
);

/** A cloud account connected with a read-only credential: its addresses and resources are read on a schedule. */
export const cloudAccounts = pgTable(
  'cloud_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** aws, azure, gcloud or digitalocean. */
    provider: text('provider').notNull(),
    label: text('label').notNull(),
    credentialSealed: text('credential_sealed').notNull(),
    credentialHint: text('credential_hint').notNull(),
    createdBy: text('created_by'),
    /**
     * The member who answers for it: who connected it, or last re-enabled it. Their leaving, removal,
     * account deletion or a role below admin disables it (core/connections/answerable.ts).
     */
    answeredBy: text('answered_by').references(() => users.id, { onDelete: 'set null' }),
    /** When it was disabled, and why in a sentence: it is not used until an admin re-enables it. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The account, subscription or project ids the last read covered. */
    accounts: jsonb('accounts').$type<string[]>().notNull().default([]),
    /** Rights the credential has beyond reading, where the cloud can tell (named for the settings page). */
    unneededRights: jsonb('unneeded_rights').$type<string[]>().notNull().default([]),
    /** Whether the last read could learn the credential's rights beyond reading (unneededRights). */
    rightsChecked: boolean('rights_checked').notNull().default(false),
    /** How long an address may be missing from the inventory before a record pointing at it is a finding. */
    graceHours: integer('grace_hours').notNull().default(48),
    /** The first read that succeeded: an address never seen is missing since then. */
    firstSyncAt: timestamp('first_sync_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** The last failed read in a plain sentence; null once a read succeeds. */
    syncError: text('sync_error'),
    /** The cloud's own words for it, shown under the sentence. */
    syncErrorDetail: text('sync_error_detail'),
    syncFailingSince: timestamp('sync_failing_since', { withTimezone: true }),
    /** When its managers were told that reads have been failing for days (once per failing spell). */
    failureMailedAt: timestamp('failure_mailed_at', { withTimezone: true }),
  },
  (t) => [index('cloud_accounts_workspace').on(t.workspaceId)],
);

/**
 * Everything public a cloud account has held: addresses and named resources, each with the first and
 * last read that saw it. Rows stay after the cloud lets go of them: that memory is the point.
 */
export const cloudInventory = pgTable(
  'cloud_inventory',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cloudAccountId: uuid('cloud_account_id')
      .notNull()
      .references(() => cloudAccounts.id, { onDelete: 'cascade' }),
    /** address or resource. */
    kind: text('kind').notNull(),
    /** elastic-ip, instance, …; bucket, distribution, environment, site, endpoint. */
    type: text('type').notNull(),
    /** The address, or the resource's host name. */
    value: text('value').notNull(),
    /** What held it: an instance id, a bucket's name. */
    name: text('name').notNull(),
    region: text('region'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('cloud_inventory_item').on(t.cloudAccountId, t.kind, t.value)],
);

/**
 * Scans, one row each from the request to the result. The worker claims a pending row, writes its
 * progress and heartbeat while it runs, and stores the findings and counts when it ends.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    domainId: uuid('domain_id').references(() => domains.id, { onDelete: 'set null' }),
    domain: text('domain').notNull(),
    /** pending, running, completed, failed or cancelled. */
    status: text('status').notNull().default('pending'),
    /** manual, rescan, scheduled or zone-change (records that changed in a connected zone). */
    trigger: text('trigger').notNull().default('manual'),
    config: jsonb('config').$type<ScanRunConfig>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    durationSeconds: real('duration_seconds'),
    progress: jsonb('progress').$type<ScanProgress>(),
    /** Written with progress; a running scan whose heartbeat stops is taken back (worker died). */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** How many times a worker has claimed this scan. */
    attempts: integer('attempts').notNull().default(0),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    subdomainsScanned: integer('subdomains_scanned').notNull().default(0),
    vulnerabilitiesFound: integer('vulnerabilities_found').notNull().default(0),
    criticalCount: integer('critical_count').notNull().default(0),
    falsePositivesFiltered: integer('false_positives_filtered').notNull().default(0),
    findings: jsonb('findings').$type<FindingView[]>().notNull().default([]),
    subdomains: jsonb('subdomains').$type<string[]>().notNull().default([]),
    /** Lookups that failed (SERVFAIL, timeouts): not findings, but the user should know. */
    scanErrors: jsonb('scan_errors').$type<ScanErrorView[]>().notNull().default([]),
    /**
     * The fingerprints' sources and their dates the scan judged names by: the catalogue changes
     * without a release, so a scan says what it used. Null before it completed, and for scans
     * stored before this was kept.
     */
    fingerprints: jsonb('fingerprints').$type<FingerprintSourceView[]>(),
    error: text('error'),
    /** What this scan changed against the domain's open findings (core/findings/lifecycle.ts). */
    changes: jsonb('changes').$type<FindingChanges>(),
    /** When its change alert went out; a retried alert job does not send it twice. */
    alertedAt: timestamp('alerted_at', { withTimezone: true }),
  },
  (t) => [
    index('scans_workspace_created').on(t.workspaceId, t.createdAt),
    index('scans_domain_created').on(t.domainId, t.createdAt),
    index('scans_status').on(t.status),
    // One active scan per domain name: the check before a new scan reads this index whatever the
    // statistics say of the statuses, and two requests that race cannot both insert one.
    uniqueIndex('scans_active').on(t.workspaceId, t.domain).where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/**
 * A finding across scans: one row per (user, domain, subdomain, record type, target, service).
 * Each completed scan marks what is new, still open, changed or resolved (src/core/findings/lifecycle.ts).
 */
export const findings = pgTable(
  'findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    /** sha256 of subdomain, record type, target and service: the finding's identity. */
    key: text('key').notNull(),
    subdomain: text('subdomain').notNull(),
    /** The latest report of it, in the engine's shape. */
    latest: jsonb('latest').$type<FindingView>().notNull(),
    /**
     * What proves it claimable (the provider's answer, and when), read from the latest report by
     * the database itself, so that no write can leave the two apart; null when nothing proved it.
     */
    proof: jsonb('proof').$type<Proof>().generatedAlwaysAs(sql`nullif(latest -> 'proof', 'null'::jsonb)`),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** Set when a later complete scan checked the name and the finding was gone; null while open. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    firstScanId: uuid('first_scan_id'),
    lastScanId: uuid('last_scan_id'),
    /** The scan that opened it this time (the first, or the one it came back in after it was resolved). */
    openedByScanId: uuid('opened_by_scan_id'),
    /** The scan that checked its name and found it gone; null while open. */
    resolvedByScanId: uuid('resolved_by_scan_id'),
    /** The user accepted the risk (with a note): it stays visible and stops alerting. */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedNote: text('accepted_note'),
    /** Who accepted it, in words (their name or address then), and their account. */
    acceptedBy: text('accepted_by'),
    acceptedByUserId: text('accepted_by_user_id'),
    /**
     * When the acceptance ends. Null with `acceptedUntilRecordChanges` false (rows accepted before
     * expiries were kept) counts as already ended: no row is given an expiry its user did not see.
     */
    acceptedUntil: timestamp('accepted_until', { withTimezone: true }),
    /** Accepted until the record changes (its target or kind): the one open-ended choice. */
    acceptedUntilRecordChanges: boolean('accepted_until_record_changes').notNull().default(false),
    /**
     * The last acceptance that ended (who had accepted it, until when, when it ended), shown on the
     * finding until it is accepted again; `lapsedAlertedAt` is set by the one alert that tells it.
     */
    lapsedAcceptance: jsonb('lapsed_acceptance').$type<LapsedAcceptance>(),
    lapsedAlertedAt: timestamp('lapsed_alerted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('findings_identity').on(t.workspaceId, t.domain, t.key),
    index('findings_workspace_resolved').on(t.workspaceId, t.resolvedAt),
  ],
);

/**
 * Keys the server makes for itself on first use (e.g. the one that signs unsubscribe links), kept in
 * the database so every process and every restart uses the same one.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** A user's webhook endpoints for change alerts; each signs its deliveries with its own secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** json (our payload) or slack (an incoming-webhook message). */
    format: text('format').notNull(),
    secret: text('secret').notNull(),
    /**
     * Who added it, or last re-enabled it: they chose where the workspace's findings go, so their
     * removal, or a role below admin, disables it. Null for a team's webhooks added before this was
     * kept (migration 0017), and after the account's deletion.
     */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** When it was disabled, and why in a sentence: it gets no deliveries until re-enabled. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_workspace').on(t.workspaceId)],
);

/**
 * Each member a scan's change alert was mailed to: a message a recipient, each with its own
 * unsubscribe link, claimed before it is sent so a retried job mails nobody twice.
 */
export const alertMails = pgTable(
  'alert_mails',
  {
    scanId: uuid('scan_id')
      .notNull()
      .references(() => scans.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scanId, t.userId] })],
);

/** Each attempt series to send one payload to one webhook: the delivery log of the settings screen. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    scanId: uuid('scan_id'),
    /** changes or test. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending, delivered or failed. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_scan').on(t.webhookId, t.scanId),
    index('webhook_deliveries_created').on(t.webhookId, t.createdAt),
  ],
);

/** Each worker process reports here; GET /scan/health reads the freshest. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  id: text('id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
});

/**
 * Work that one process at a time may do (the scheduling pass): the holder renews its lease while
 * it works and removes it when done; one that dies leaves a lease that runs out by itself.
 */
export const leases = pgTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Stripe webhook events already applied, by event id: Stripe delivers at least once, so a replayed
 * event must change nothing. Carries no user id; kept for Stripe's retry window.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What happened to an account and by whose hand: sign-ins, domains, scans, plan changes, exports,
 * API keys. Part of the data export; removed with the account.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace it happened in; null for what concerns the account alone (sign-in, deletion). */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    /** A dotted verb from src/core/audit.ts, e.g. domain.verified. */
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** The client address of the request, when a request did it. */
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_user_created').on(t.userId, t.createdAt),
    index('audit_log_workspace_created').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Public-API keys (`dw_…`). Only a SHA-256 of the key is stored; the key itself is shown once, and
 * the prefix lets the user tell keys apart.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who made it: calls made with the key are theirs in the audit log. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The first characters of the key, e.g. dw_3fA9xQ2b: safe to show. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key. */
    hash: text('hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_workspace').on(t.workspaceId)],
);

/**
 * A tracker or pager the workspace's findings go to (Jira, GitHub Issues, Linear, PagerDuty); its
 * credential sealed like a DNS connection's, never shown again.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    label: text('label').notNull(),
    /** The least status that files a ticket. */
    minStatus: text('min_status').$type<FindingStatus>().notNull(),
    settings: jsonb('settings').$type<Record<string, string>>().notNull(),
    credentialSealed: text('credential_sealed').notNull(),
    credentialHint: text('credential_hint').notNull(),
    /**
     * Who connected it, or last re-enabled it: they answer for where the findings go, so their
     * leaving, removal, account deletion or a role below admin disables it.
     */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** When it was disabled, and why in a sentence: it gets no deliveries until re-enabled. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('integrations_workspace').on(t.workspaceId)],
);

/**
 * Each finding's ticket in each integration: the state it should be in (`wanted`, set when findings
 * change, so a rescan that changes nothing queues nothing), the state last delivered, and the
 * tracker's own reference to it.
 */
export const integrationTickets = pgTable(
  'integration_tickets',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    findingKey: text('finding_key').notNull(),
    findingId: uuid('finding_id').references(() => findings.id, { onDelete: 'set null' }),
    /** open or closed. */
    wanted: text('wanted').notNull(),
    /** open or closed, once delivered; null before. */
    delivered: text('delivered'),
    /** The state a queued delivery is bringing it to: set when queued, so one change queues one delivery. */
    queued: text('queued'),
    /** The key, number or id in the tracker; PagerDuty's is the dedup key. */
    ref: text('ref'),
    /** What the closing comment says (who accepted, why, until when), or why it reopened. */
    reason: text('reason'),
    /** The finding's status the ticket last told: a change is one comment, a rescan without one nothing. */
    status: text('status'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.integrationId, t.findingKey] }),
    // The few tickets waiting to be queued: what the dispatcher reads every few seconds.
    index('integration_tickets_waiting')
      .on(t.integrationId)
      .where(sql`${t.delivered} is distinct from ${t.wanted} and ${t.queued} is distinct from ${t.wanted}`),
  ],
);

/** Each attempt series to bring one ticket to its wanted state, or to file a test item. */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** Null for a test. */
    findingKey: text('finding_key'),
    /** open, closed or test. */
    action: text('action').notNull(),
    /** pending, delivered or failed. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('integration_deliveries_created').on(t.integrationId, t.createdAt)],
);
