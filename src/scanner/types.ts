import type { Entry } from './fingerprints/schema.ts';
import type { AllowPrivate } from './http/guard.ts';

export type FindingStatus = 'claimable' | 'likely' | 'review';
export type Risk = 'high' | 'medium' | 'low';
export type RecordKind = 'CNAME' | 'A' | 'AAAA' | 'NS' | 'MX' | 'TXT';

/** The detection kinds of the engine, named for the report and the tests. */
export type DetectionKind =
  | 'unclaimed-resource'
  | 'nxdomain-at-service'
  | 'unregistered-domain'
  | 'zone-missing'
  | 'mail'
  | 'cloud-ip'
  | 'dangling-cname';

export interface Finding {
  subdomain: string;
  recordType: RecordKind;
  target: string;
  service: string;
  status: FindingStatus;
  risk: Risk;
  evidence: string[];
  explanation: string;
  proofOfConcept: string;
  remediation: string;
}

export interface ScanError {
  subdomain?: string;
  stage: 'discover' | 'resolve' | 'detect' | 'validate';
  message: string;
}

export interface ProgressEvent {
  phase: 'discover' | 'resolve' | 'validate' | 'done';
  done: number;
  total: number;
}

export interface CloudRange {
  cidr: string;
  provider: string;
}

export interface ScanOptions {
  /** `host` or `host:port`; the system's resolvers when absent. */
  resolvers?: string[];
  /** crt.sh-compatible base URL; `ct: false` skips certificate transparency. */
  ctUrl?: string;
  certspotterUrl?: string;
  rdapUrl?: string;
  ct?: boolean;
  /** false: the apex and the given names only. */
  discovery?: boolean;
  validation?: boolean;
  /** Labels to try under the domain; the built-in list when absent. */
  wordlist?: readonly string[];
  /** Full host names to check besides what discovery finds. */
  subdomains?: readonly string[];
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
  /** The fingerprint catalogue; the built-in one when absent. */
  catalogue?: readonly Entry[];
  /** Probes per second to one service (a token bucket), on top of `perServiceConcurrency`. */
  perServiceRate?: number;
  /** Probes in flight to one service, so a scan never hammers one provider. */
  perServiceConcurrency?: number;
  maxBodyBytes?: number;
  /** Counts HTTP connections the engine makes; tests use it to prove the SSRF guard. */
  onConnect?: (address: string, port: number) => void;
}

export interface ScanResult {
  domain: string;
  startedAt: string;
  completedAt: string;
  subdomains: string[];
  findings: Finding[];
  errors: ScanError[];
  stats: {
    dnsQueries: number;
    candidates: number;
    /** Candidates that validation dropped ("Filtered FP"). */
    filtered: number;
    wildcard: boolean;
  };
}
