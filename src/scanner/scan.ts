import { getServers } from 'node:dns';
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import { Rdap } from '../connectors/rdap/rdap.ts';
import { ScanContext } from './context.ts';
import { CloudMemory } from './detect/cloud-accounts.ts';
import { cloudRanges } from './detect/cloud-ranges.ts';
import { detectDelegation } from './detect/delegation.ts';
import { detectExpiring } from './detect/expiring.ts';
import { detectApexNs, detectDmarc, detectMail, detectTxtHosts } from './detect/mail.ts';
import { detectMtaSts } from './detect/mta-sts.ts';
import { detectWildcard } from './detect/wildcard.ts';
import { detectOpenTransfer } from './detect/zone-transfer.ts';
import { mailLabels } from './discover/mail-names.ts';
import { walkNsec } from './discover/nsec-walk.ts';
import { txtHosts } from './discover/txt-names.ts';
import { builtInWordlist, wildcardProbes } from './discover/wordlist.ts';
import { resolveChain } from './dns/chain.ts';
import { inZone, isHostName, normaliseName } from './dns/names.ts';
import { DnsPool, parseMx, parseServer } from './dns/resolver.ts';
import { BUNDLED } from './fingerprints/file.ts';
import { type ApexRecords, apexRecords, namesFromCt, unanswered, wildcardOf } from './phases/collect.ts';
import { NameSet, quote } from './phases/names.ts';
import { Progress } from './phases/progress.ts';
import { givenBy, ResolvePhase } from './phases/resolve.ts';
import { dedupe, stamped, validate } from './phases/validate.ts';
import { prove } from './proof/prove.ts';
import { proofSettings } from './proof/settings.ts';
import type { Finding, ScanOptions, ScanResult } from './types.ts';

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
  const progress = new Progress(report);
  // CT answers, the validation delay and slow probes can leave a phase silent for long stretches;
  // a worker that shows progress needs to hear from the scan regularly all the same.
  const heartbeat =
    report &&
    setInterval(() => {
      // A listener that throws fails the scan at the scan's own next event; thrown from a timer
      // it would take the whole process down instead.
      try {
        report(progress.last);
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
  progress: Progress,
): Promise<ScanResult> {
  const startedAt = new Date().toISOString();
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const maxNames = options.maxNames ?? DEFAULTS.maxNames;
  const maxInjected = options.maxInjectedNames ?? DEFAULTS.maxInjectedNames;
  // Read once: the report names the sources of the very catalogue the checks used.
  const fingerprints = options.fingerprints ?? BUNDLED;
  const { ctx, dns } = openContext(domain, { ...options, fingerprints }, signal);
  try {
    progress.note({ phase: 'discover', done: 0, total: 1 });

    // Given names and the zone's records first, then CT, then the wordlist: the bound on names
    // drops guesses first.
    const names = new NameSet(domain, maxNames, maxInjected);
    names.admit(domain, 'given', 'domain');
    for (const name of options.subdomains ?? []) {
      if (isHostName(normaliseName(name)) && !inZone(normaliseName(name), domain)) {
        ctx.error('discover', `${quote(name)} is not inside ${domain}; skipped`);
      } else names.admit(name, 'given', 'given name');
    }
    const apex = await apexRecords(ctx);
    const { candidates, checked, wildcard } = apex.lame
      ? await lameApex(ctx)
      : await scanNames(ctx, names, apex, options, concurrency, progress);
    for (const problem of names.problems()) ctx.error('discover', problem);
    const unique = dedupe(candidates);
    const { findings, filtered } = await validate(unique, {
      enabled: options.validation !== false,
      delayMs: options.validationDelayMs ?? DEFAULTS.validationDelayMs,
      width: Math.min(concurrency, 16),
      signal,
      progress,
    });
    signal.throwIfAborted();
    // After resolution and validation: the providers are asked only about what still dangles.
    const proven = await prove(findings, ctx, {
      settings: options.proof ?? proofSettings(),
      validated: options.validation !== false,
      signal,
    });
    signal.throwIfAborted();
    progress.note({ phase: 'done', done: 1, total: 1 });
    const withSources: Finding[] = proven.map((finding) => ({
      ...finding,
      sources: names.sourcesOf(finding.subdomain),
    }));
    withSources.sort((a, b) => rank(a) - rank(b) || a.subdomain.localeCompare(b.subdomain));
    const errors = dedupeErrors(ctx.errors);
    const unchecked = failedNames(checked, errors, withSources);
    return {
      domain,
      startedAt,
      completedAt: new Date().toISOString(),
      subdomains: (unchecked.size > 0
        ? [...checked].filter((name) => !unchecked.has(name))
        : [...checked]
      ).sort(),
      findings: withSources,
      errors,
      fingerprints: fingerprints.sources,
      stats: {
        dnsQueries: dns.queries,
        candidates: unique.length,
        filtered,
        wildcard,
        skipped: names.over.names + names.over.injected,
      },
    };
  } finally {
    // The address client holds sockets of its own: a long-lived worker must not collect them.
    dns.close();
  }
}

/**
 * The engine's context for one domain: the DNS pool over the scan's resolvers, RDAP, the bounded
 * pinned probes. The caller closes `dns` when done.
 */
export function openContext(domain: string, options: ScanOptions, signal: AbortSignal) {
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
      catalogue: (options.fingerprints ?? BUNDLED).entries,
      onConnect: options.onConnect,
    },
    dns,
    rdapUrl ? new Rdap(rdapUrl, Math.max(timeoutMs, 5000), signal) : undefined,
    Math.max(4, Math.min(concurrency, 32)),
    options.cloudRanges ?? cloudRanges,
    signal,
  );
  if (options.cloudInventory?.accounts.length)
    ctx.cloudMemory = new CloudMemory(options.cloudInventory, options.now?.() ?? new Date());
  return { ctx, dns };
}

/**
 * No resolver answers for the apex: nothing under it can be checked, and the one question left is
 * whether its own delegation points at DNS hosts that dropped the zone (the whole domain claimable).
 */
async function lameApex(ctx: ScanContext) {
  const candidates = await detectDelegation(ctx, ctx.settings.domain);
  if (candidates.length === 0) throw unanswered(ctx);
  return { candidates, checked: new Set([ctx.settings.domain]), wildcard: false };
}

/** Discovery and resolution: every name the scan can find, checked by the detection rules. */
async function scanNames(
  ctx: ScanContext,
  names: NameSet,
  apex: ApexRecords,
  options: ScanOptions,
  concurrency: number,
  progress: Progress,
) {
  const domain = ctx.settings.domain;
  const discovery = options.discovery ?? true;
  ctx.apexNameservers = apex.ns.filter(isHostName);
  if (discovery) {
    for (const record of apex.ns) names.admit(record, 'dns', `NS ${domain}`);
    for (const record of apex.mx) names.admit(parseMx(record).exchange, 'dns', `MX ${domain}`);
    // Hosts the apex's TXT records name (SPF mechanisms, verification values): in-zone ones are names too.
    for (const record of apex.txt)
      for (const host of txtHosts(record, domain)) names.admit(host, 'dns', `TXT ${domain}`);
  }
  const ct = discovery && options.ct !== false ? namesFromCt(ctx, options, DEFAULTS) : undefined;
  const wildcard = discovery ? await wildcardOf(ctx) : undefined;
  const resolve = new ResolvePhase(ctx, names, {
    discovery,
    wildcard: wildcard?.signatures,
    width: concurrency,
    progress,
  });
  if (options.zoneRecords) await resolve.readZone(options.zoneRecords);
  resolve.release();
  if (discovery) {
    // A zone signed with NSEC lists its own names: every one, without guessing.
    for await (const name of walkNsec(ctx, names.maxNames))
      if (!name.startsWith('*.')) resolve.listed(name, 'NSEC', false);
  }
  for (const list of (await ct) ?? []) for (const name of list) names.admit(name, 'ct', 'CT');
  resolve.release();
  if (discovery) {
    for (const label of options.wordlist ?? builtInWordlist())
      names.admit(`${label}.${domain}`, 'wordlist', 'wordlist');
    // Mail and service records live at names no list holds: looked up, and kept only if they exist.
    for (const label of mailLabels()) names.admit(`${label}.${domain}`, 'wordlist', 'mail names');
    resolve.release();
  }
  await resolve.idle();
  // Pages name hosts: outside ones are checked for takeover, in-zone ones are names to scan too.
  const secondOrder = await resolve.secondOrder.detect((host) => resolve.listed(host, 'page', true));
  await resolve.idle();
  const candidates = resolve.candidates;
  candidates.push(...stamped(secondOrder));
  if (wildcard) {
    names.noteWildcard(`*.${domain}`, 'dns');
    candidates.push(...stamped(await detectWildcard(ctx, domain, wildcard.probe)));
  }
  for (const { name: owner, known } of resolve.zoneWildcards) {
    const parent = owner.slice(2);
    if (!inZone(parent, domain)) continue;
    names.noteWildcard(owner, 'zone');
    const [probe] = wildcardProbes(parent, 1);
    const res = await resolveChain(ctx.dns, probe as string, {}, givenBy(known, false));
    candidates.push(...stamped(await detectWildcard(ctx, parent, res)));
  }
  candidates.push(...stamped(await detectMail(ctx, domain, apex.mx, apex.txt)));
  candidates.push(...stamped(await detectTxtHosts(ctx, domain, apex.txt)));
  candidates.push(...stamped(await detectApexNs(ctx, domain, apex.ns)));
  candidates.push(...stamped(await detectDmarc(ctx, domain)));
  candidates.push(...stamped(await detectMtaSts(ctx, domain, apex.mx)));
  for (const server of apex.ns) ctx.notePointer(domain, 'NS', server);
  for (const record of apex.mx) ctx.notePointer(domain, 'MX', parseMx(record).exchange);
  // Registration decides: a registration finding replaces the "missing name" review of the same record.
  const registrations = stamped(await detectExpiring(ctx));
  const decided = new Set(registrations.map((c) => `${c.finding.subdomain} ${c.finding.target}`));
  const settled = candidates.filter(
    (c) => c.kind !== 'dangling-cname' || !decided.has(`${c.finding.subdomain} ${c.finding.target}`),
  );
  candidates.length = 0;
  candidates.push(...settled, ...registrations);
  candidates.push(...stamped(await detectOpenTransfer(ctx, domain)));
  return { candidates, checked: resolve.checked, wildcard: resolve.wildcard };
}

const ORDER = { claimable: 0, likely: 1, review: 2 } as const;
function rank(finding: Finding) {
  return ORDER[finding.status];
}

/**
 * Names a check of which could not finish (their errors) and that show no finding: they are not
 * checked, so they never read as clean, and the findings they had stay open.
 */
function failedNames(checked: Set<string>, errors: ScanResult['errors'], findings: readonly Finding[]) {
  const failed = new Set<string>();
  for (const error of errors)
    if (error.subdomain && checked.has(error.subdomain)) failed.add(error.subdomain);
  if (failed.size > 0) for (const finding of findings) failed.delete(finding.subdomain);
  return failed;
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
