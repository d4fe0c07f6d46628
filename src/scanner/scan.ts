import { getServers } from 'node:dns';
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import { type Candidate, ScanContext } from './context.ts';
import { cloudRanges } from './detect/cloud-ranges.ts';
import { detectApexNs, detectMail } from './detect/mail.ts';
import { detectName } from './detect/records.ts';
import { fromCertSpotter, fromCrtSh } from './discover/ct.ts';
import { Rdap } from './discover/rdap.ts';
import { answerSignature, builtInWordlist, wildcardProbes } from './discover/wordlist.ts';
import { resolveChain } from './dns/chain.ts';
import { DnsPool, normaliseName, parseMx, parseServer } from './dns/resolver.ts';
import { catalogue } from './fingerprints/catalogue.ts';
import type { Finding, ScanOptions, ScanResult } from './types.ts';
import { mapLimit, sleep } from './util/limit.ts';

export const DEFAULTS = {
  ctUrl: 'https://crt.sh',
  certspotterUrl: 'https://api.certspotter.com',
  rdapUrl: 'https://rdap.org',
  concurrency: 64,
  timeoutMs: 3000,
  httpTimeoutMs: 8000,
  dnsTries: 2,
  validationDelayMs: 2000,
  maxBodyBytes: 256 * 1024,
  perServiceConcurrency: 4,
  perServiceRate: 20,
} as const;

/** A domain the engine accepts: a syntactically valid host name under a public suffix. */
export function parseDomain(input: string): string {
  // Internationalised names are scanned in their ASCII (punycode) form, as DNS carries them.
  const domain = normaliseName(domainToASCII(input.trim()) || input);
  const parsed = parse(domain);
  if (!parsed.hostname || parsed.isIp || !parsed.domain || !/^[a-z0-9.-]+$/.test(domain)) {
    throw new Error(`invalid domain '${input}'`);
  }
  return domain;
}

function inZone(name: string, domain: string) {
  return name === domain || name.endsWith(`.${domain}`);
}

type Source = 'apex' | 'given' | 'ct' | 'wordlist' | 'found';

/**
 * Scans one domain: discover names, resolve them, detect dangling records, validate each candidate
 * a second time, and explain. The CLI and the workers call this same function.
 */
export async function scanDomain(input: string, options: ScanOptions = {}): Promise<ScanResult> {
  const startedAt = new Date().toISOString();
  const domain = parseDomain(input);
  const signal = options.signal;
  signal?.throwIfAborted();
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  // The system's list is already in the form Resolver takes (and may hold scoped IPv6 addresses).
  const servers = options.resolvers?.length ? options.resolvers.map(parseServer) : getServers();
  if (servers.length === 0) throw new Error('no DNS resolver configured (give --resolver HOST[:PORT])');
  const dns = new DnsPool({
    servers,
    timeoutMs,
    tries: options.dnsTries ?? DEFAULTS.dnsTries,
    concurrency,
    signal,
  });
  const rdapUrl = options.rdapUrl ?? DEFAULTS.rdapUrl;
  const ctx = new ScanContext(
    {
      domain,
      timeoutMs,
      httpTimeoutMs: options.httpTimeoutMs ?? options.timeoutMs ?? DEFAULTS.httpTimeoutMs,
      ports: { http: options.httpPort ?? 80, https: options.httpsPort ?? 443 },
      allowPrivate: options.allowPrivate ?? false,
      nameserverPort: options.nameserverPort ?? 53,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
      perServiceConcurrency: options.perServiceConcurrency ?? DEFAULTS.perServiceConcurrency,
      perServiceRate: options.perServiceRate ?? DEFAULTS.perServiceRate,
      catalogue: options.catalogue ?? catalogue,
      onConnect: options.onConnect,
    },
    dns,
    rdapUrl ? new Rdap(rdapUrl, Math.max(timeoutMs, 5000), signal) : undefined,
    Math.max(4, Math.min(concurrency, 32)),
    options.cloudRanges ?? cloudRanges,
    signal,
  );
  const progress = options.onProgress ?? (() => {});
  const discovery = options.discovery ?? true;
  progress({ phase: 'discover', done: 0, total: 1 });

  const sources = new Map<string, Source>([[domain, 'apex']]);
  const add = (name: string, source: Source) => {
    const normal = normaliseName(name);
    if (inZone(normal, domain) && !sources.has(normal)) sources.set(normal, source);
  };
  for (const name of options.subdomains ?? []) {
    const normal = normaliseName(name);
    if (!inZone(normal, domain)) ctx.error('discover', `${name} is not inside ${domain}; skipped`);
    else add(normal, 'given');
  }

  const apexAnswers = await Promise.all(
    (['NS', 'MX', 'TXT'] as const).map((type) => dns.query(domain, type)),
  );
  // Without answers for the apex, every later "finding" would rest on nothing: fail the scan.
  if (apexAnswers.every((outcome) => outcome.status === 'nxdomain')) {
    throw new Error(`${domain} does not exist (NXDOMAIN)`);
  }
  const failed = apexAnswers.filter(
    (o) => o.status !== 'ok' && o.status !== 'nodata' && o.status !== 'nxdomain',
  );
  if (failed.length === apexAnswers.length) {
    throw new Error(
      `the resolvers (${servers.join(', ')}) give no answer for ${domain}: ${failed[0]?.status}`,
    );
  }
  const [ns, mx, txt] = apexAnswers.map((outcome, i) => {
    if (outcome.status === 'ok') return outcome.records;
    if (outcome.status !== 'nodata' && outcome.status !== 'nxdomain') {
      ctx.error('discover', `${['NS', 'MX', 'TXT'][i]} ${domain}: ${outcome.status}`, domain);
    }
    return [];
  });

  ctx.apexNameservers = ns ?? [];
  let wildcard: Set<string> | undefined;
  if (discovery) {
    for (const record of [...(ns ?? []), ...(mx ?? []).map((r) => parseMx(r).exchange)]) add(record, 'found');
    const ctTasks: Promise<void>[] = [];
    if (options.ct !== false) {
      const ctOptions = { timeoutMs: Math.max(timeoutMs, 30_000), signal };
      const sourcesOfCt = [
        ['crt.sh', options.ctUrl ?? DEFAULTS.ctUrl, fromCrtSh],
        ['Cert Spotter', options.certspotterUrl ?? DEFAULTS.certspotterUrl, fromCertSpotter],
      ] as const;
      for (const [label, url, fetcher] of sourcesOfCt) {
        if (!url) continue;
        ctTasks.push(
          fetcher(url, domain, ctOptions).then(
            (names) => {
              for (const name of names) add(name, 'ct');
            },
            (error: unknown) => {
              signal?.throwIfAborted();
              ctx.error('discover', `${label}: ${error instanceof Error ? error.message : String(error)}`);
            },
          ),
        );
      }
    }
    const probes = await Promise.all(wildcardProbes(domain).map((name) => resolveChain(dns, name)));
    const answering = probes.filter((res) => res.status === 'exists');
    if (answering.length > 0) wildcard = new Set(answering.map(answerSignature));
    for (const label of options.wordlist ?? builtInWordlist()) add(`${label}.${domain}`, 'wordlist');
    await Promise.all(ctTasks);
  }

  const checked: string[] = [];
  const candidates: Candidate[] = [];
  let done = 0;
  let pending = [...sources.keys()];
  while (pending.length > 0) {
    const batch = pending;
    pending = [];
    await mapLimit(batch, concurrency, async (name) => {
      const res = await resolveChain(dns, name);
      done++;
      progress({ phase: 'resolve', done, total: sources.size });
      const source = sources.get(name);
      if (source === 'wordlist' && (res.status === 'nxdomain' || wildcard?.has(answerSignature(res)))) return;
      checked.push(name);
      if (discovery) {
        for (const hop of res.chain) {
          if (inZone(hop, domain) && !sources.has(hop)) {
            sources.set(hop, 'found');
            pending.push(hop);
          }
        }
      }
      candidates.push(...(await detectName(ctx, res)));
      // Mail records live on subdomains too (bounce and sending domains); a CNAME'd name has none.
      if (name !== domain && res.status === 'exists' && res.chain.length === 0) {
        const [mx, txt] = await Promise.all([dns.query(name, 'MX'), dns.query(name, 'TXT')]);
        const records = (o: typeof mx) => (o.status === 'ok' ? o.records : []);
        candidates.push(...(await detectMail(ctx, name, records(mx), records(txt))));
      }
    });
  }
  candidates.push(...(await detectMail(ctx, domain, mx ?? [], txt ?? [])));
  candidates.push(...(await detectApexNs(ctx, domain, ns ?? [])));

  const findings: Finding[] = [];
  let filtered = 0;
  const unique = dedupe(candidates);
  if (options.validation === false) {
    for (const candidate of unique) {
      const finding = candidate.finding;
      findings.push({
        ...finding,
        // Without the second check nothing is proven.
        status: finding.status === 'claimable' ? 'likely' : finding.status,
        evidence: [...finding.evidence, 'not validated (validation turned off)'],
      });
    }
  } else if (unique.length > 0) {
    progress({ phase: 'validate', done: 0, total: unique.length });
    await sleep(options.validationDelayMs ?? DEFAULTS.validationDelayMs, signal);
    let validated = 0;
    await mapLimit(unique, Math.min(concurrency, 16), async (candidate) => {
      const again = await candidate.recheck();
      validated++;
      progress({ phase: 'validate', done: validated, total: unique.length });
      if (again) findings.push({ ...candidate.finding, evidence: [...candidate.finding.evidence, again] });
      else filtered++;
    });
  }
  signal?.throwIfAborted();
  progress({ phase: 'done', done: 1, total: 1 });
  findings.sort((a, b) => rank(a) - rank(b) || a.subdomain.localeCompare(b.subdomain));
  return {
    domain,
    startedAt,
    completedAt: new Date().toISOString(),
    subdomains: checked.sort(),
    findings,
    errors: dedupeErrors(ctx.errors),
    stats: { dnsQueries: dns.queries, candidates: unique.length, filtered, wildcard: wildcard !== undefined },
  };
}

const ORDER = { claimable: 0, likely: 1, review: 2 } as const;
function rank(finding: Finding) {
  return ORDER[finding.status];
}

function dedupe(candidates: Candidate[]) {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = `${c.kind} ${c.finding.subdomain} ${c.finding.recordType} ${c.finding.target} ${c.finding.service}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupeErrors(errors: ScanResult['errors']) {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.stage} ${e.subdomain ?? ''} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
