import type { AllowPrivate } from '../connectors/http/address-guard.ts';
import type { Rdap } from '../connectors/rdap/rdap.ts';
import type { CloudMemory } from './detect/cloud-accounts.ts';
import { registrableDomain } from './discover/rdap.ts';
import { inZone } from './dns/names.ts';
import type { DnsPool } from './dns/resolver.ts';
import type { Entry } from './fingerprints/schema.ts';
import { type ProbeResult, probe, type Scheme } from './http/probe.ts';
import { RangeIndex } from './net/range-index.ts';
import type { CloudRange, Detected, DetectionKind, ScanError } from './types.ts';
import { Limiter, RateLimiter } from './util/limit.ts';

/** Registrable domains checked for a lapsing registration, per scan: each is one RDAP request. */
const MAX_POINTED_AT = 200;

export interface Pointer {
  subdomain: string;
  recordType: 'CNAME' | 'NS' | 'MX' | 'TXT' | 'SRV';
  target: string;
}

/** A possible finding and the way to check its evidence a second time. */
export interface Candidate {
  kind: DetectionKind;
  finding: Detected;
  /** Evidence again (fresh lookups, another resolver, new probes), or undefined when it no longer holds. */
  recheck: () => Promise<string | undefined>;
  /** When the scan found it (`performance.now()`): validation checks it again a delay after that. */
  foundAt?: number;
}

export interface Settings {
  domain: string;
  timeoutMs: number;
  httpTimeoutMs: number;
  ports: Record<Scheme, number>;
  allowPrivate: AllowPrivate;
  nameserverPort: number;
  maxBodyBytes: number;
  perServiceConcurrency: number;
  perServiceRate: number;
  catalogue: readonly Entry[];
  onConnect?: (address: string, port: number) => void;
}

/** One index per ranges list: built once for the server's lists, not once per scan. */
const rangeIndexes = new WeakMap<readonly CloudRange[], RangeIndex<CloudRange>>();
function rangeIndexOf(ranges: readonly CloudRange[]): RangeIndex<CloudRange> {
  let index = rangeIndexes.get(ranges);
  if (!index) {
    index = new RangeIndex(ranges);
    rangeIndexes.set(ranges, index);
  }
  return index;
}

export class ScanContext {
  readonly settings: Settings;
  readonly dns: DnsPool;
  readonly rdap: Rdap | undefined;
  readonly signal: AbortSignal | undefined;
  readonly errors: ScanError[] = [];
  /** The scanned domain's own nameservers, asked for referrals the resolvers will not give. */
  apexNameservers: string[] = [];
  /** The workspace's connected cloud accounts and what they held, when it has any. */
  cloudMemory: CloudMemory | undefined;
  /**
   * Registrable domains that the zone's CNAME, NS and MX records lead into, each with the first
   * record seen, for the check of registrations about to lapse (bounded: each costs an RDAP request).
   */
  readonly pointedAt = new Map<string, Pointer>();
  /** The scanned domain's own registrable domain, whose registration is not the scan's business. */
  private readonly ownRegistrable: string | undefined;
  private readonly probes: Limiter;
  private readonly perService = new Map<string, { limiter: Limiter; rate: RateLimiter }>();
  private readonly probeCache = new Map<string, Promise<ProbeResult>>();
  private readonly cloudRanges: RangeIndex<CloudRange>;

  constructor(
    settings: Settings,
    dns: DnsPool,
    rdap: Rdap | undefined,
    probeWidth: number,
    ranges: readonly CloudRange[],
    signal?: AbortSignal,
  ) {
    this.settings = settings;
    this.ownRegistrable = registrableDomain(settings.domain);
    this.dns = dns;
    this.rdap = rdap;
    this.signal = signal;
    this.probes = new Limiter(probeWidth, signal);
    this.cloudRanges = rangeIndexOf(ranges);
  }

  /** The registrable domain of a record's target, unless it is the scanned domain's own. */
  foreignRegistrable(target: string): string | undefined {
    // A name in the zone is in the zone's own registration: no public-suffix lookup for each such hop.
    if (inZone(target, this.settings.domain)) return undefined;
    const registrable = registrableDomain(target);
    return registrable && registrable !== this.ownRegistrable ? registrable : undefined;
  }

  /** Notes a record's target for the expiry check; the scanned domain's own registration is not its business. */
  notePointer(subdomain: string, recordType: Pointer['recordType'], target: string) {
    const registrable = this.foreignRegistrable(target);
    if (!registrable) return;
    if (this.pointedAt.has(registrable) || this.pointedAt.size >= MAX_POINTED_AT) return;
    this.pointedAt.set(registrable, { subdomain, recordType, target });
  }

  error(stage: ScanError['stage'], message: string, subdomain?: string) {
    this.errors.push(subdomain ? { subdomain, stage, message } : { stage, message });
  }

  cloudProvider(address: string): string | undefined {
    return this.cloudRange(address)?.provider;
  }

  /** The cloud range an address is in, the first listed when several hold it. */
  cloudRange(address: string): CloudRange | undefined {
    return this.cloudRanges.find(address);
  }

  /**
   * The registrable domain of `host` when nobody has registered it: RDAP answers 404 and DNS
   * shows no delegation for the domain itself (NXDOMAIN, or no NS records). Registration decides,
   * not resolution: the host itself may still answer (parking, sinkholes, stale caches). DNS is
   * asked too because some RDAP gateways answer 404 for TLDs they do not cover, and a registered
   * domain is delegated: its apex has NS records.
   */
  async unregistered(host: string, fresh = false): Promise<string | undefined> {
    const registrable = registrableDomain(host);
    if (!registrable || !this.rdap || registrable === this.ownRegistrable) return undefined;
    const registration = await this.rdap.lookup(registrable, fresh);
    if (registration === 'unknown') this.error('detect', `RDAP gave no answer for ${registrable}`, host);
    if (registration !== 'unregistered') return undefined;
    const apex = await this.dns.query(registrable, 'NS', { fresh });
    return apex.status === 'nxdomain' || apex.status === 'nodata' ? registrable : undefined;
  }

  /** First address of a host through the scan's resolvers, for redirect hops. */
  async resolveAddress(host: string, fresh = false): Promise<string | undefined> {
    const a = await this.dns.query(host, 'A', { fresh });
    if (a.status === 'ok') return a.records[0];
    const aaaa = await this.dns.query(host, 'AAAA', { fresh });
    return aaaa.status === 'ok' ? aaaa.records[0] : undefined;
  }

  /**
   * Probes are bounded globally and per service, and a scan probes each (host, address, scheme)
   * once unless `fresh` (validation probes again).
   */
  probe(
    host: string,
    address: string,
    scheme: Scheme,
    service: Entry | undefined,
    fresh = false,
    path = '/',
  ) {
    const key = `${scheme} ${host} ${address} ${path}`;
    const cached = fresh ? undefined : this.probeCache.get(key);
    if (cached) return cached;
    // Probes outside any service (silent cloud addresses) are limited per address instead.
    const serviceKey = service?.id ?? `address ${address}`;
    let limits = this.perService.get(serviceKey);
    if (!limits) {
      limits = {
        limiter: new Limiter(this.settings.perServiceConcurrency, this.signal),
        rate: new RateLimiter(this.settings.perServiceRate, this.signal),
      };
      this.perService.set(serviceKey, limits);
    }
    const { limiter, rate } = limits;
    const pending = this.probes.run(() =>
      limiter.run(async () => {
        await rate.take();
        return probe(host, address, scheme, {
          ports: this.settings.ports,
          allowPrivate: this.settings.allowPrivate,
          timeoutMs: this.settings.httpTimeoutMs,
          maxBodyBytes: this.settings.maxBodyBytes,
          maxRedirects: 3,
          resolveAddress: (name) => this.resolveAddress(name, fresh),
          signal: this.signal,
          onConnect: this.settings.onConnect,
          path,
        });
      }),
    );
    if (!fresh) this.probeCache.set(key, pending);
    return pending;
  }
}
