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
import { inZone, isHostName, normaliseName } from './dns/names.ts';
import { DnsPool, parseMx, parseServer } from './dns/resolver.ts';
import { catalogue } from './fingerprints/catalogue.ts';
import type { Finding, ProgressEvent, ScanOptions, ScanResult } from './types.ts';
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
  /** Names checked in one scan, the apex and the given names included. */
  maxNames: 10_000,
  /** Names the scanned zone's own records (apex NS and MX, in-zone CNAME hops) may add. */
  maxInjectedNames: 1_000,
  /** The whole scan, discovery to validation; past it the scan fails with `ScanDeadlineError`. */
  deadlineMs: 30 * 60_000,
  /** A progress event at least this often, the last one repeated while a phase has nothing new. */
  progressIntervalMs: 1000,
} as const;

export class ScanDeadlineError extends Error {
  constructor(ms: number) {
    super(`the scan did not finish within its deadline of ${ms} ms`);
    this.name = 'ScanDeadlineError';
  }
}

/** A domain the engine accepts: a syntactically valid host name under a public suffix. */
export function parseDomain(input: string): string {
  // Internationalised names are scanned in their ASCII (punycode) form, as DNS carries them.
  const domain = normaliseName(domainToASCII(input.trim()) || input);
  const parsed = parse(domain);
  if (!parsed.hostname || parsed.isIp || !parsed.domain || !isHostName(domain) || domain.includes('_')) {
    throw new Error(`invalid domain '${input}'`);
  }
  return domain;
}

/** Where a name came from; a name found several ways has several. */
type Source = 'apex' | 'given' | 'record' | 'ct' | 'wordlist';

/** Quoted and cut short: names from records and CT are the zone owner's (or anyone's) text. */
const quote = (text: string) => JSON.stringify(text.slice(0, 80));

/**
 * Scans one domain: discover names, resolve them, detect dangling records, validate each candidate
 * a second time, and explain. The CLI and the workers call this same function.
 */
export async function scanDomain(input: string, options: ScanOptions = {}): Promise<ScanResult> {
  const domain = parseDomain(input);
  options.signal?.throwIfAborted();
  const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
  if (!(deadlineMs > 0)) throw new Error(`invalid deadline ${deadlineMs} ms`);
  const deadline = new AbortController();
  // setTimeout fires at once for delays past 2^31 - 1 ms; a longer deadline waits that long.
  const timer = setTimeout(
    () => deadline.abort(new ScanDeadlineError(deadlineMs)),
    Math.min(deadlineMs, 2 ** 31 - 1),
  );
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const report = options.onProgress;
  let last: ProgressEvent = { phase: 'discover', done: 0, total: 1 };
  const progress = (event: ProgressEvent) => {
    last = event;
    report?.(event);
  };
  // CT answers, the validation delay and slow probes can leave a phase silent for long stretches;
  // a worker that shows progress needs to hear from the scan regularly all the same.
  const heartbeat =
    report &&
    setInterval(() => {
      // A listener that throws fails the scan at the scan's own next event; thrown from a timer
      // it would take the whole process down instead.
      try {
        report(last);
      } catch {}
    }, DEFAULTS.progressIntervalMs);
  try {
    return await run(domain, options, signal, progress);
  } finally {
    clearTimeout(timer);
    clearInterval(heartbeat);
  }
}

async function run(
  domain: string,
  options: ScanOptions,
  signal: AbortSignal,
  progress: (event: ProgressEvent) => void,
): Promise<ScanResult> {
  const startedAt = new Date().toISOString();
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxNames = options.maxNames ?? DEFAULTS.maxNames;
  const maxInjected = options.maxInjectedNames ?? DEFAULTS.maxInjectedNames;
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
  const discovery = options.discovery ?? true;
  progress({ phase: 'discover', done: 0, total: 1 });

  const names = new Map<string, Set<Source>>([[domain, new Set(['apex'])]]);
  const over = { names: 0, injected: 0 };
  // One error per place names came from, however many bad names a zone or a list holds.
  const invalid = new Map<string, { count: number; example: string }>();
  let injected = 0;
  /** Adds a valid, in-zone name within the bounds; true when it is new to the scan. */
  const admit = (raw: string, source: Source, what: string): boolean => {
    const name = normaliseName(raw);
    if (!isHostName(name)) {
      const seen = invalid.get(what) ?? { count: 0, example: raw };
      seen.count++;
      invalid.set(what, seen);
      return false;
    }
    if (!inZone(name, domain)) return false;
    const known = names.get(name);
    if (known) {
      known.add(source);
      return false;
    }
    if (source === 'record' && injected >= maxInjected) {
      over.injected++;
      return false;
    }
    if (names.size >= maxNames) {
      over.names++;
      return false;
    }
    if (source === 'record') injected++;
    names.set(name, new Set([source]));
    return true;
  };
  for (const name of options.subdomains ?? []) {
    if (isHostName(normaliseName(name)) && !inZone(normaliseName(name), domain)) {
      ctx.error('discover', `${quote(name)} is not inside ${domain}; skipped`);
    } else admit(name, 'given', 'given name');
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

  ctx.apexNameservers = (ns ?? []).filter(isHostName);
  let wildcard: Set<string> | undefined;
  if (discovery) {
    for (const record of ns ?? []) admit(record, 'record', `NS ${domain}`);
    for (const record of mx ?? []) admit(parseMx(record).exchange, 'record', `MX ${domain}`);
    const found: Array<[Source, string[]]> = [];
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
            (list) => {
              found.push(['ct', list]);
            },
            (error: unknown) => {
              signal.throwIfAborted();
              ctx.error('discover', `${label}: ${error instanceof Error ? error.message : String(error)}`);
            },
          ),
        );
      }
    }
    const probes = await Promise.all(wildcardProbes(domain).map((name) => resolveChain(dns, name)));
    const answering = probes.filter((res) => res.status === 'exists');
    if (answering.length > 0) wildcard = new Set(answering.map(answerSignature));
    await Promise.all(ctTasks);
    // Names from certificates go before guesses, so the bound on names drops guesses first.
    for (const [source, list] of found) for (const name of list) admit(name, source, 'CT');
    for (const label of options.wordlist ?? builtInWordlist())
      admit(`${label}.${domain}`, 'wordlist', 'wordlist');
  }

  const checked: string[] = [];
  const candidates: Candidate[] = [];
  let done = 0;
  let pending = [...names.keys()];
  while (pending.length > 0) {
    const batch = pending;
    pending = [];
    await mapLimit(batch, concurrency, async (name) => {
      const res = await resolveChain(dns, name);
      done++;
      progress({ phase: 'resolve', done, total: names.size });
      const from = names.get(name);
      // A guessed name is worth reporting only when it exists itself: a CNAME whose target is
      // gone (NXDOMAIN at the end of the chain) is the very record this scan looks for.
      const guessed = from?.size === 1 && from.has('wordlist');
      const absent = res.status === 'nxdomain' && res.chain.length === 0;
      if (guessed && (absent || wildcard?.has(answerSignature(res)))) return;
      checked.push(name);
      if (discovery) {
        for (const hop of res.chain) if (admit(hop, 'record', `CNAME ${name}`)) pending.push(hop);
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
  for (const [what, { count, example }] of invalid) {
    const which =
      count > 1
        ? `${count} names, such as ${quote(example)}, are not host names`
        : `${quote(example)} is not a host name`;
    ctx.error('discover', `${what}: ${which}; skipped`);
  }
  if (over.names > 0) {
    ctx.error(
      'discover',
      `${over.names} names past the limit of ${maxNames} names per scan were not checked`,
    );
  }
  if (over.injected > 0) {
    ctx.error(
      'discover',
      `${over.injected} names that the zone's NS, MX and CNAME records point to were not checked (limit ${maxInjected})`,
    );
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
  signal.throwIfAborted();
  progress({ phase: 'done', done: 1, total: 1 });
  findings.sort((a, b) => rank(a) - rank(b) || a.subdomain.localeCompare(b.subdomain));
  return {
    domain,
    startedAt,
    completedAt: new Date().toISOString(),
    subdomains: checked.sort(),
    findings,
    errors: dedupeErrors(ctx.errors),
    stats: {
      dnsQueries: dns.queries,
      candidates: unique.length,
      filtered,
      wildcard: wildcard !== undefined,
      skipped: over.names + over.injected,
    },
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
