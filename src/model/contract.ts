/**
 * The dashboard API's shapes. Their paths and field names are fixed: clients outside the repository
 * call them (docs/fixed-contract.md). The server answers with these types and validates requests
 * with the zod schemas in schemas.ts, built on them; the islands read the same types. No zod here:
 * the dashboard's bundle would carry it (about 24 KB gzip) for nothing.
 */

import type { DisabledView } from './connections.ts';
import type { Proof, ProofCheckId } from './proof.ts';

export type { Proof } from './proof.ts';

export const SCAN_FREQUENCIES = ['manual', 'daily', 'weekly'] as const;
export type ScanFrequency = (typeof SCAN_FREQUENCIES)[number];

export interface ScanConfig {
  skipDiscovery: boolean;
  useCertificateTransparency: boolean;
  useMultiStageValidation: boolean;
  scanFrequency: ScanFrequency;
}

/**
 * How one scan runs: the domain's options, and for a scan of records that just changed in the
 * connected zone, only those names (no discovery).
 */
export type ScanRunConfig = Omit<ScanConfig, 'scanFrequency'> & { names?: string[] };

/**
 * How a scan runs unless its domain says otherwise: discovery, CT and multi-stage validation all
 * on. Also what a scan row without a stored configuration (queued before one was kept) ran with.
 */
export const DEFAULT_SCAN_OPTIONS: Omit<ScanConfig, 'scanFrequency'> = {
  skipDiscovery: false,
  useCertificateTransparency: true,
  useMultiStageValidation: true,
};

/** A new domain's configuration: the default options, scanned daily. */
export const DEFAULT_SCAN_CONFIG: ScanConfig = { ...DEFAULT_SCAN_OPTIONS, scanFrequency: 'daily' };

/** Finding statuses from the least to the most certain. */
export const FINDING_STATUSES = ['review', 'likely', 'claimable'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];
/** How bad a takeover of the name would be. */
export const RISKS = ['high', 'medium', 'low'] as const;
export type Risk = (typeof RISKS)[number];
/** The record types a finding can be about. */
export const FINDING_RECORD_TYPES = ['CNAME', 'A', 'AAAA', 'NS', 'MX', 'TXT', 'SRV'] as const;
export type FindingRecordType = (typeof FINDING_RECORD_TYPES)[number];

/** Per-domain alerts: the channels, and the least status that alerts. */
export interface AlertSettings {
  email: boolean;
  /** To every webhook of the owner. */
  webhooks: boolean;
  minStatus: FindingStatus;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { email: true, webhooks: true, minStatus: 'review' };

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const SCAN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** A monitored domain as the dashboard sees it (plus the TXT record to publish). */
export interface OpenFindingCounts {
  claimable: number;
  likely: number;
  review: number;
  accepted: number;
}

/** A domain's latest full scan in brief, as its card shows it beside a later change scan. */
export interface FullScanSummary {
  id: string;
  status: ScanStatus;
  /** When it ended (or started, while it runs). */
  at: string;
  subdomainsScanned: number;
  falsePositivesFiltered: number;
  durationSeconds: number | null;
}

export interface DomainView {
  id: string;
  domain: string;
  status: DomainStatus;
  verificationMethod: 'dns';
  verificationToken: string;
  /** `name` is relative to the registered domain's zone: @ for that domain itself, `app` for app.example.com. */
  txtRecord: { type: 'TXT'; name: string; value: string };
  addedAt: string;
  verifiedAt: string | null;
  /**
   * What ownership stands on while verified: `zone`, public DNS delegates the domain to a connected
   * provider's zone; `txt`, the TXT record; `shared`, the proof the same person gave for the same
   * name in another of their workspaces, which it lapses with. Null until verified.
   */
  proof: 'zone' | 'txt' | 'shared' | null;
  lastScanAt: string | null;
  nextScanAt: string | null;
  /** Open findings that are not accepted, now: whatever the last scan checked (a partial scan checks some names). */
  vulnerabilitiesCount: number;
  /** Open findings now, by status; accepted ones are counted apart and not in the other three. */
  openFindings: OpenFindingCounts;
  /** False while monitoring is paused (e.g. the ownership record has been gone for 7 days). */
  isActive: boolean;
  /** Why monitoring is paused, in words; null when active. */
  pausedReason: string | null;
  /** Beyond the plan's number of domains: not scanned until an upgrade or the owner keeps it (POST /api/domains/{id}/keep). */
  overPlanLimit: boolean;
  /** Where the zone's records come from, when they were read and how many: null without an inventory. */
  inventory: InventorySummary | null;
  lastScanId: string | null;
  scanStatus: ScanStatus | null;
  subdomainsScanned: number | null;
  criticalCount: number | null;
  falsePositivesFiltered: number | null;
  durationSeconds: number | null;
  /**
   * Where the latest scan is a change scan (the records a connected zone or an upload changed,
   * not the whole domain): the latest full scan, which the card shows with the change scan beside
   * it. Null when the latest scan is a full one.
   */
  fullScan: FullScanSummary | null;
  scanConfig: ScanConfig;
  alerts: AlertSettings;
  /** The last verification or scan error, in words. */
  error: string | null;
}

/**
 * One finding, as the scan engine makes it (`src/scanner/types.ts` derives its `Finding` from this)
 * and as every answer, stored scan and report carries it.
 */
export interface FindingView {
  subdomain: string;
  recordType: FindingRecordType;
  target: string;
  service: string;
  status: FindingStatus;
  risk: Risk;
  evidence: string[];
  explanation: string;
  proofOfConcept: string;
  remediation: string;
  /** Every source that revealed the subdomain; absent on findings stored before sources were kept. */
  sources?: NameSource[];
  /**
   * What proves it claimable, or proves the name taken: the provider's answer about the name.
   * null where no check answered; absent on findings stored before proofs were kept.
   */
  proof?: Proof | null;
  /** The finding's key (`dw:` and a hash), where a workspace holds it: scans answered by the API. */
  key?: string;
}

/** Where a finding's name came from: the caller, the zone's records, CT logs, the wordlist, DNS answers. */
export const NAME_SOURCES = ['given', 'zone', 'ct', 'wordlist', 'dns'] as const;
export type NameSource = (typeof NAME_SOURCES)[number];

/**
 * What a completed scan changed: findings seen for the first time, findings
 * whose status or target changed, and findings gone from names the scan checked again. Each is
 * named by its subdomain, record type and target.
 */
export interface FindingChanges {
  new: FindingRef[];
  changed: (FindingRef & { from: { status: FindingView['status']; target: string } })[];
  resolved: FindingRef[];
  /** Open findings seen again unchanged. */
  stillOpen: number;
}

export interface FindingRef {
  subdomain: string;
  recordType: FindingView['recordType'];
  target: string;
  service: string;
  status: FindingView['status'];
  /** The finding's key; absent on changes recorded before keys were kept. */
  key?: string;
}

/** A finding's history across scans (GET /api/findings). */
export interface FindingRecord {
  id: string;
  /** `dw:` and a hash of the workspace, name, record type, target and kind: the same across scans. */
  key: string;
  domain: string;
  /** Its latest report. */
  finding: FindingView;
  firstSeenAt: string;
  lastSeenAt: string;
  /** When a later complete scan found it fixed; null while open. */
  resolvedAt: string | null;
  /**
   * Accepted as a risk: still shown, no longer alerted, until `until` (an ISO date-time, or
   * `record-changes`; null when none was kept, which counts as ended). `by` names who accepted it.
   */
  accepted: { at: string; by: string | null; note: string; until: string | null } | null;
  /**
   * The last acceptance that ended (its expiry came, or the record changed), while the finding is
   * not accepted again: who had accepted it, until when, and when it ended.
   */
  acceptanceEnded?: { by: string | null; until: string | null; at: string } | null;
  /** The scan that opened it (again, after it was resolved). */
  openedByScanId: string | null;
  /** The scan that checked its name and found it gone; null while open. */
  resolvedByScanId: string | null;
}

/** `open`: open and not accepted; `accepted`: open and accepted as a risk. */
export const FINDING_STATES = ['open', 'accepted', 'resolved', 'all'] as const;

/** What a webhook posts: our JSON payload, or a Slack, Microsoft Teams or Discord message. */
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams', 'discord'] as const;
export const WEBHOOK_FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  json: 'JSON',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  discord: 'Discord',
};

/** A webhook for change alerts (GET /api/webhooks); the secret signs its deliveries. */
export interface WebhookView {
  id: string;
  url: string;
  format: (typeof WEBHOOK_FORMATS)[number];
  secret: string;
  createdAt: string;
  /**
   * Set while it is disabled (its adder left the workspace or is no longer an admin): it gets no
   * deliveries until an admin re-enables it (PATCH `{ "enabled": true }`).
   */
  disabled: DisabledView;
}

/** One entry of the delivery log. */
export interface WebhookDeliveryView {
  id: string;
  webhookId: string;
  kind: 'changes' | 'test';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One completed scan in a domain's trend: its open findings by status. */
export interface TrendPoint {
  at: string;
  scanId: string;
  claimable: number;
  likely: number;
  review: number;
}

export interface ScanProgress {
  /** The engine's phase: discover, resolve, validate, done. */
  stage: string;
  checked: number;
  total: number;
}

/**
 * A check the scan could not finish (a server that never stops sending, a lookup that failed): not
 * a finding, but the name it names was not checked, and the user should know.
 */
export interface ScanErrorView {
  subdomain?: string;
  stage: 'discover' | 'resolve' | 'detect' | 'validate';
  message: string;
}

/**
 * One source of the takeover fingerprints a scan judged names by (nuclei-templates, BadDNS, …):
 * where it was read and the date of what was read.
 */
export interface FingerprintSourceView {
  name: string;
  url: string;
  /** YYYY-MM-DD. */
  date: string;
}

/** A scan as the scan service answers it. */
export interface ScanView {
  scan_id: string;
  domain: string;
  status: ScanStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_seconds: number | null;
  subdomains_scanned: number;
  vulnerabilities_found: number;
  critical_count: number;
  false_positives_filtered: number;
  error: string | null;
  progress: ScanProgress | null;
  scan_config: Omit<ScanConfig, 'scanFrequency'>;
  /** Every finding (GET one scan); the list answers carry them too, so cards can show them. */
  findings: FindingView[];
  /** The names checked; only on GET one scan (the report download). */
  subdomains?: string[];
  /** The checks it could not finish and the lookups that failed; only on GET one scan. */
  errors?: ScanErrorView[];
  /** Against the scans before it; null until the scan completed. */
  changes: FindingChanges | null;
  /**
   * It checked some names only (a connected zone's changed records): its findings are what it found
   * there, and the domain's other open findings stay open.
   */
  partial: boolean;
  /** How many names it checked (so far, while it runs). */
  namesChecked: number;
  /**
   * The fingerprints' sources it judged names by, as they were when it ran; null until it
   * completed, and for scans stored before they were recorded.
   */
  fingerprints: FingerprintSourceView[] | null;
}

export interface ScanListResponse {
  scans: ScanView[];
  total: number;
}

/** GET /scan/api/v1/scans/stats: the Scans screen's summary and the plan's usage. */
export interface ScanStats {
  total: number;
  by_status: Record<ScanStatus, number>;
  /** Completed / (completed + failed), in percent; null before any scan ended. */
  success_rate: number | null;
  issues_found: number;
  /** Findings a later complete scan found fixed. */
  issues_resolved: number;
  domains_monitored: number;
  scans_this_month: number;
  subdomains_scanned_this_month: number;
  ct_lookups_this_month: number;
  validation_checks_this_month: number;
}

/** The plan's quota and its use, counted from real rows. */
export interface QuotaView {
  tier: string;
  currentDomains: number;
  maxDomains: number;
  scansUsedToday: number;
  /** null: unlimited (fair use). */
  maxScansPerDay: number | null;
  scansUsedThisMonth: number;
  maxScansPerMonth: number | null;
  /** The first of next month, UTC. */
  resetDate: string;
  /**
   * The other workspaces whose domains and requested scans count against this same allowance (a
   * Free plan is one per account: its personal workspace and its team workspace share it); empty
   * when the workspace's plan is its own.
   */
  sharedWith: { id: string; name: string }[];
}

export interface DomainListResponse {
  domains: DomainView[];
  quota: QuotaView;
}

export interface StartScanRequest {
  domain: string;
  scanType: 'dangling-subdomains';
  skip_discovery?: boolean;
  use_certificate_transparency?: boolean;
  use_multi_stage_validation?: boolean;
}

export interface ServiceHealth {
  status: 'healthy' | 'degraded' | 'down';
  checks: { database: boolean; queue: boolean; worker: boolean };
  /** Seconds since the worker last reported; null when no worker has. */
  worker_heartbeat_age_seconds: number | null;
  /** Proof checks turned off for want of the operator's probe credentials: their findings are at most likely. */
  proofs_off?: ProofCheckId[];
}

/** An API key as Settings lists it (GET /api/keys): never the key itself, only its first characters. */
export interface ApiKeyView {
  id: string;
  name: string;
  /** `dw_` and the key's next 8 characters, enough to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** POST /api/keys: the new key, whose `secret` is shown this once and stored only as a hash. */
export interface CreatedApiKey {
  key: ApiKeyView;
  secret: string;
}

export const DNS_PROVIDER_IDS = ['cloudflare', 'route53', 'digitalocean', 'gcloud'] as const;
export type DnsProviderId = (typeof DNS_PROVIDER_IDS)[number];

/** A DNS provider connection (GET /api/dns-connections): never the credential, only its last four characters. */
export interface ConnectionView {
  id: string;
  provider: DnsProviderId;
  label: string;
  credentialHint: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  lastSyncAt: string | null;
  /** The last failed read in a plain sentence; null while reads succeed. */
  syncError: string | null;
  /** The provider's own words for it, when it gave some. */
  syncErrorDetail: string | null;
  syncFailingSince: string | null;
  /** The zones the credential reads; `domainId` is set once the zone is monitored. */
  zones: { zone: string; domainId: string | null }[];
  /**
   * Set while it is disabled (the member who answered for it left the workspace or is no longer an
   * admin): it is not read until an admin re-enables it (PATCH `{ "enabled": true }`).
   */
  disabled: DisabledView;
  /** The member who answers for it (connected it, or last re-enabled it); null when nobody does. */
  answeredBy: string | null;
}

export const CLOUD_PROVIDER_IDS = ['aws', 'azure', 'gcloud', 'digitalocean'] as const;
export type CloudProviderId = (typeof CLOUD_PROVIDER_IDS)[number];

/** A cloud account connection (GET /api/cloud-accounts): never the credential, only its last four characters. */
export interface CloudAccountView {
  id: string;
  provider: CloudProviderId;
  label: string;
  credentialHint: string;
  createdAt: string;
  lastSyncAt: string | null;
  /** The last failed read in a plain sentence; null while reads succeed. */
  syncError: string | null;
  /** The cloud's own words for it, when it gave some. */
  syncErrorDetail: string | null;
  /** Hours an address may be missing from the inventory before a record pointing at it is a finding. */
  graceHours: number;
  /** The account, subscription or project ids the credential reads. */
  accounts: string[];
  /** What the inventory remembers: addresses and named resources, held now or once. */
  counts: { addresses: number; resources: number };
  /**
   * Rights the credential has beyond reading, where the cloud can tell (AWS when the key may
   * simulate its own policy, Azure, Google Cloud): it is accepted, but needs none of them.
   */
  unneededRights: string[];
  /** Whether the last read learned those rights; false before the first read and where the cloud would not say. */
  rightsChecked: boolean;
  /**
   * Set while it is disabled (the member who answered for it left the workspace or is no longer an
   * admin): it is not read until an admin re-enables it (PATCH `{ "enabled": true }`).
   */
  disabled: DisabledView;
  /** The member who answers for it (connected it, or last re-enabled it); null when nobody does. */
  answeredBy: string | null;
}

/** One address or resource a cloud account holds or once held. */
export interface CloudInventoryItem {
  kind: 'address' | 'resource';
  /** elastic-ip, instance, network-interface, …; bucket, distribution, environment, site, endpoint. */
  type: string;
  /** The address, or the resource's host name. */
  value: string;
  name: string;
  region: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  /** Whether the last read saw it: false once the account let it go. */
  held: boolean;
}

/** GET /api/cloud-accounts/{id}/inventory: a page (`?limit&cursor&q&type`), as the records list pages. */
export interface CloudInventoryView {
  readAt: string | null;
  items: CloudInventoryItem[];
  nextCursor: string | null;
  total: number;
}

/** Where a domain's inventory comes from: a provider's API or an uploaded zone file. */
export const INVENTORY_SOURCES = [...DNS_PROVIDER_IDS, 'zone-file'] as const;
export type InventorySource = (typeof INVENTORY_SOURCES)[number];

interface InventoryRecord {
  name: string;
  type: string;
  ttl: number;
  data: string;
  /** The first of `sources`. */
  source: string;
  /** Every source that holds the record: a provider's zone, a zone file. */
  sources: string[];
  firstSeenAt: string;
  lastSeenAt: string;
}

interface InventoryChange {
  at: string;
  change: 'added' | 'changed' | 'removed';
  name: string;
  type: string;
  ttl: number;
  data: string;
  source: string;
}

/** A domain's inventory in brief, as its card shows it. */
export interface InventorySummary {
  /** The source read last. */
  source: InventorySource;
  readAt: string;
  /** Records in the inventory, each counted once however many sources hold it. */
  records: number;
  /**
   * Each source as itself, read last first: a zone file uploaded beside a provider's zone counts
   * its own records, not the inventory's.
   */
  sources: { source: InventorySource; readAt: string; records: number }[];
}

/**
 * GET /api/domains/{id}/records: a page of a domain's inventory (`?limit&cursor&q&type`), where it
 * comes from, and its history.
 */
export interface InventoryView {
  source: InventorySource | null;
  readAt: string | null;
  /** This page's records, in (name, type, data) order. */
  records: InventoryRecord[];
  /** Pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Records the filter (`q`, `type`) keeps, on every page. */
  total: number;
  history: InventoryChange[];
}
