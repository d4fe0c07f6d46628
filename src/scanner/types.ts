import type { AllowPrivate } from '../connectors/http/address-guard.ts';
import type { CloudProviderId, FindingRecordType, FindingView, ScanErrorView } from '../model/contract.ts';
import type { CatalogueSource } from './fingerprints/catalogue.ts';
import type { Fingerprints } from './fingerprints/file.ts';
import type { ProofSettings } from './proof/settings.ts';
import type { ZoneRecord } from './zone/record.ts';

export type { FindingStatus, Risk } from '../model/contract.ts';
export type RecordKind = FindingRecordType;

/** The detection kinds of the engine, named for the report and the tests. */
export type DetectionKind =
  | 'unclaimed-resource'
  | 'nxdomain-at-service'
  | 'unregistered-domain'
  | 'zone-missing'
  | 'mail'
  | 'cloud-ip'
  | 'dangling-cname'
  | 'expiring-domain'
  | 'open-zone-transfer'
  | 'second-order'
  | 'released-address'
  | 'released-resource';

/**
 * The contract's finding, made by this engine: it always knows every source that revealed
 * `subdomain` (only findings stored before sources were kept lack them).
 */
/** The engine's finding: every field but the key, which a workspace's stored scans add. */
export type Finding = Required<Omit<FindingView, 'key'>>;

/**
 * A finding as a detection rule makes it; the scan adds the sources of its name, and the proof
 * phase its proof (a rule that asked the provider itself, RDAP, sets it already).
 */
export type Detected = Omit<Finding, 'sources' | 'proof'> & {
  proof?: Finding['proof'];
  /** How far a provider's "free" may raise a review (an edge case's); the proof phase drops it. */
  upTo?: Finding['status'];
};

export type ScanError = ScanErrorView;

/** Emitted at every step and repeated at least every `DEFAULTS.progressIntervalMs` while a scan runs. */
export interface ProgressEvent {
  phase: 'discover' | 'resolve' | 'validate' | 'done';
  done: number;
  total: number;
}

export interface CloudRange {
  cidr: string;
  provider: string;
  /** The cloud whose accounts can be connected, when the range is one of theirs. */
  cloud?: CloudProviderId;
}

/**
 * The workspace's connected cloud accounts as the scan reads them: plain data, with every address and
 * resource each one ever held and when it last saw it. A record pointing into a connected cloud is
 * judged against this memory instead of by probing the address.
 */
export interface CloudInventory {
  accounts: CloudAccountInventory[];
}

export interface CloudAccountInventory {
  label: string;
  cloud: CloudProviderId;
  /** Account, subscription or project ids. */
  accounts: string[];
  /** Hours an address may be missing before a record pointing at it is a finding. */
  graceHours: number;
  /** The first and the last read (ISO): an item seen at the last read is held now. */
  firstSyncAt: string;
  lastSyncAt: string;
  items: {
    kind: 'address' | 'resource';
    type: string;
    /** The address, or the resource's host name. */
    value: string;
    name: string;
    lastSeenAt: string;
  }[];
}

export interface ScanOptions {
  /** `host` or `host:port`; the system's resolvers when absent. */
  resolvers?: string[];
  /** crt.sh-compatible base URL; `ct: false` skips certificate transparency. */
  ctUrl?: string;
  certspotterUrl?: string;
  /** RDAP base for registration lookups (expiring, unregistered domains): rdap.org when absent, none when empty. */
  rdapUrl?: string;
  ct?: boolean;
  /** false: the apex and the given names only. */
  discovery?: boolean;
  validation?: boolean;
  /** Labels to try under the domain; the built-in list when absent. */
  wordlist?: readonly string[];
  /** Full host names to check besides what discovery finds. */
  subdomains?: readonly string[];
  /**
   * The zone's own records (a zone file, a transfer, a provider's API), read as a stream: every
   * owner name and every target they hold is scanned, with their data taken as the answer instead
   * of asking DNS again. Works with or without `discovery`.
   */
  zoneRecords?: AsyncIterable<ZoneRecord>;
  httpPort?: number;
  httpsPort?: number;
  allowPrivate?: AllowPrivate;
  /** DNS queries in flight, and the width of the name pipeline. */
  concurrency?: number;
  /** Per DNS try, and per HTTP request unless `httpTimeoutMs` says otherwise. */
  timeoutMs?: number;
  httpTimeoutMs?: number;
  dnsTries?: number;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** How long validation waits before checking a candidate again. */
  validationDelayMs?: number;
  /** Port of the delegated nameservers the NS check asks directly (53; tests use a fixture port). */
  nameserverPort?: number;
  cloudRanges?: readonly CloudRange[];
  /** The workspace's cloud accounts and what they held; none when absent. */
  cloudInventory?: CloudInventory;
  /** The scan's clock, for grace periods (tests move it); now when absent. */
  now?: () => Date;
  /** The fingerprint catalogue and the sources it was read from; the bundled one when absent. */
  fingerprints?: Fingerprints;
  /** Probes per second to one service (a token bucket), on top of `perServiceConcurrency`. */
  perServiceRate?: number;
  /** Probes in flight to one service, so a scan never hammers one provider. */
  perServiceConcurrency?: number;
  maxBodyBytes?: number;
  /** Called by the connector for every HTTP connection the engine opens; tests count them. */
  onConnect?: (address: string, port: number) => void;
  /**
   * Names checked in one scan, the apex and given names included (a plan's limit; default
   * `DEFAULTS.maxNames`). Given names come first, then the zone's records, CT, the wordlist; the
   * names past the limit are counted in `stats.skipped` and named in `errors`.
   */
  maxNames?: number;
  /** Names the zone's own apex NS/MX records and in-zone CNAME hops may add (`DEFAULTS.maxInjectedNames`). */
  maxInjectedNames?: number;
  /** The whole scan in ms (`DEFAULTS.deadlineMs`); past it the scan rejects with `ScanDeadlineError`. */
  deadlineMs?: number;
  /**
   * The operator's probe credentials and the providers' URLs for the proof checks; without them
   * the anonymous checks run and the others are off (their findings at most likely).
   */
  proof?: ProofSettings;
}

export interface ScanResult {
  domain: string;
  startedAt: string;
  completedAt: string;
  subdomains: string[];
  findings: Finding[];
  errors: ScanError[];
  /** The sources, each with its date, of the fingerprints this scan judged names by. */
  fingerprints: readonly CatalogueSource[];
  stats: {
    dnsQueries: number;
    candidates: number;
    /** Candidates that validation dropped ("Filtered FP"). */
    filtered: number;
    wildcard: boolean;
    /** Names not checked because of `maxNames` or `maxInjectedNames`. */
    skipped: number;
  };
}
