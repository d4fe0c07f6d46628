import type { Proof } from '../../model/proof.ts';
import type { Candidate, ScanContext } from '../context.ts';
import { type Resolution, resolveChain } from '../dns/chain.ts';
import { inZone, isHostName } from '../dns/names.ts';
import { entriesForCname } from '../fingerprints/match.ts';
import type { Entry } from '../fingerprints/schema.ts';
import { type ProbeResult, unfinished } from '../http/probe.ts';
import { rdapProof } from '../proof/rdap.ts';
import { secondOrderTexts } from '../report/texts.ts';
import type { RecordKind } from '../types.ts';
import { gradeFor } from './grade.ts';
import { firstAddress, webEvidence } from './web.ts';

/** Bounds: pages read per scan, references read per page, outside hosts checked per scan. */
const SECOND_ORDER = { pages: 20, referencesPerPage: 30, hosts: 50 } as const;

/** `src` of scripts and frames, `href` of stylesheets: what runs or renders inside the page. */
const REFERENCE =
  /<(script|iframe)\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)|<link\b(?=[^>]*\brel\s*=\s*["']?stylesheet)[^>]*?\bhref\s*=\s*["']?([^"'\s>]+)/gi;

/** The hosts of a page's scripts, stylesheets and frames (absolute or protocol-relative URLs only). */
export function referencedHosts(html: string, limit: number = SECOND_ORDER.referencesPerPage): string[] {
  const hosts = new Set<string>();
  for (const match of html.matchAll(REFERENCE)) {
    const raw = match[2] ?? match[3] ?? '';
    if (!/^(https?:)?\/\//i.test(raw)) continue;
    try {
      const host = new URL(raw, 'https://page.invalid/').hostname.toLowerCase();
      if (isHostName(host)) hosts.add(host);
    } catch {}
    if (hosts.size >= limit) break;
  }
  return [...hosts];
}

/** The Content-Security-Policy directives whose sources run, render or receive data in the page. */
const CSP_DIRECTIVES = new Set(['script-src', 'style-src', 'frame-src', 'connect-src', 'default-src']);

/** The host of a CSP source or an origin (`https://a.example:8443`, `*.cdn.example`, `cdn.example/path`). */
function sourceHost(source: string): string | undefined {
  if (/^'|^[a-z][a-z0-9+.-]*:$/i.test(source) || source === '*') return undefined;
  const bare = source.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\*\./, '');
  const host = bare
    .split(/[/:?#]/)[0]
    ?.toLowerCase()
    .replace(/\.$/, '');
  return host && isHostName(host) ? host : undefined;
}

/**
 * The hosts a response's headers trust: the sources of its Content-Security-Policy's script, style,
 * frame, connect and default directives, and its Access-Control-Allow-Origin, each with where it
 * was named.
 */
export function headerHosts(headers: Record<string, string>, limit: number = SECOND_ORDER.referencesPerPage) {
  const hosts = new Map<string, string>();
  for (const policy of (headers['content-security-policy'] ?? '').split(',')) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (!name || !CSP_DIRECTIVES.has(name.toLowerCase())) continue;
      for (const source of sources) {
        const host = sourceHost(source);
        if (host && !hosts.has(host) && hosts.size < limit)
          hosts.set(host, `Content-Security-Policy ${name}`);
      }
    }
  }
  const origin = sourceHost((headers['access-control-allow-origin'] ?? '').trim());
  if (origin && !hosts.has(origin) && hosts.size < limit) hosts.set(origin, 'Access-Control-Allow-Origin');
  return hosts;
}

export interface Page {
  name: string;
  recordType: RecordKind;
  address: string;
}

/**
 * Second-order takeover: a live page of the zone loads scripts, styles or frames from a host that
 * anyone can claim (a domain nobody registered, a storage bucket or service resource that no longer
 * exists); whoever claims it runs code on the page. Pages are read through the same pinned, guarded
 * probes; in-zone hosts they name are handed back to the scan as names.
 */
export class SecondOrder {
  private readonly pages: Array<Page & { read: Promise<ProbeResult> }> = [];
  private readonly checked = new Set<string>();
  private readonly ctx: ScanContext;

  constructor(ctx: ScanContext) {
    this.ctx = ctx;
  }

  /** A live name whose page may be read, within the bound. */
  offer(res: Resolution) {
    const address = firstAddress(res.a, res.aaaa);
    if (!address || this.pages.length >= SECOND_ORDER.pages) return;
    const recordType: RecordKind = res.chain.length > 0 ? 'CNAME' : address.includes(':') ? 'AAAA' : 'A';
    // Read now, while the scan still resolves: the reads wait on the service's limits, not on the scan's end.
    const read = this.ctx.probe(res.name, address, 'https', undefined);
    // A cancelled scan rejects the read; `detect` sees that rejection, if it still runs.
    read.catch(() => {});
    this.pages.push({ name: res.name, recordType, address, read });
  }

  /**
   * Reads every offered page (HTTPS, and HTTP when HTTPS gives no answer); in-zone hosts go to
   * `found`, outside ones are checked.
   */
  async detect(found: (host: string) => void): Promise<Candidate[]> {
    const candidates: Candidate[] = [];
    for (const page of this.pages) {
      let result = await page.read;
      if (result.responses.length === 0)
        result = await this.ctx.probe(page.name, page.address, 'http', undefined);
      const response = result.responses.find(
        (r) => r.host === page.name && r.status >= 200 && r.status < 300,
      );
      const stop = unfinished(result);
      if (stop) this.ctx.error('detect', stop, page.name);
      if (!response) continue;
      const hosts = new Map<string, string>();
      for (const host of referencedHosts(response.body)) hosts.set(host, 'a script, style or frame');
      for (const [host, where] of headerHosts(response.headers)) if (!hosts.has(host)) hosts.set(host, where);
      for (const [host, where] of hosts) {
        if (inZone(host, this.ctx.settings.domain)) {
          found(host);
          continue;
        }
        if (this.checked.has(host) || this.checked.size >= SECOND_ORDER.hosts) continue;
        this.checked.add(host);
        const candidate = await this.claimable(page, response.url, host, where);
        if (candidate) candidates.push(candidate);
      }
    }
    return candidates;
  }

  private async claimable(
    page: Page,
    pageUrl: string,
    host: string,
    where: string,
  ): Promise<Candidate | undefined> {
    const ctx = this.ctx;
    const base = (
      service: string,
      grade: ReturnType<typeof gradeFor>,
      evidence: string[],
      recheck: Candidate['recheck'],
      proof?: Proof,
    ) => ({
      kind: 'second-order' as const,
      finding: {
        subdomain: page.name,
        recordType: page.recordType,
        target: host,
        service,
        ...grade,
        evidence: [
          where.startsWith('a script')
            ? `${pageUrl} loads ${where} from ${host}`
            : `${pageUrl} trusts ${host} in its ${where} header`,
          ...evidence,
        ],
        ...secondOrderTexts(pageUrl, host, service),
        ...(proof ? { proof } : {}),
      },
      recheck,
    });
    const registrable = await ctx.unregistered(host);
    if (registrable) {
      return base(
        `unregistered domain ${registrable}`,
        { status: 'claimable', risk: 'high' },
        [`${registrable} is not registered (RDAP 404, no delegation in DNS)`],
        async () =>
          (await ctx.unregistered(host, true))
            ? `RDAP still 404 and no delegation for ${registrable}`
            : undefined,
        rdapProof(registrable, '404: not registered, and no delegation in DNS'),
      );
    }
    const entries = entriesForCname(host, ctx.settings.catalogue).filter(
      (e) => e.status !== 'not-vulnerable',
    );
    if (entries.length === 0) return undefined;
    const res = await resolveChain(ctx.dns, host);
    for (const entry of entries) {
      const evidence = await this.evidence(host, res, entry);
      if (evidence.length === 0) continue;
      return base(entry.service, gradeFor(entry), evidence, async () => {
        const again = await resolveChain(ctx.dns, host, { fresh: true, avoid: res.server });
        const more = await this.evidence(host, again, entry, true);
        return more.length > 0 ? `confirmed: ${more.join('; ')}` : undefined;
      });
    }
    return undefined;
  }

  /** The entry's own evidence for the host: NXDOMAIN where that is the sign, else its page. */
  private async evidence(host: string, res: Resolution, entry: Entry, fresh = false): Promise<string[]> {
    if (entry.dns === 'nxdomain') return res.status === 'nxdomain' ? [`${res.terminal}: NXDOMAIN`] : [];
    const address = firstAddress(res.a, res.aaaa);
    if (entry.dns !== 'resolves' || res.status !== 'exists' || !address) return [];
    return webEvidence(this.ctx, host, address, entry, fresh);
  }
}
