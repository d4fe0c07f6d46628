import { parse } from 'tldts';
import { CLOUD_NAMES } from '../../connectors/cloud/provider.ts';
import type { Candidate, ScanContext } from '../context.ts';
import { registrableDomain } from '../discover/rdap.ts';
import { answeredBy, type Resolution, resolveChain } from '../dns/chain.ts';
import { knownSafeCname } from '../fingerprints/known-safe.ts';
import {
  entriesForCname,
  entriesForIp,
  entriesForRegistrable,
  isServiceHost,
} from '../fingerprints/match.ts';
import type { Entry } from '../fingerprints/schema.ts';
import {
  cloudIpTexts,
  danglingCnameTexts,
  foreignCloudAddressTexts,
  releasedAddressTexts,
  releasedResourceTexts,
} from '../report/texts.ts';
import type { Detected, RecordKind } from '../types.ts';
import { accountName } from './cloud-accounts.ts';
import { detectDelegation } from './delegation.ts';
import { gradeFor } from './grade.ts';
import { unregisteredCandidate } from './unregistered.ts';
import { firstAddress, webEvidence } from './web.ts';

function entryFinding(
  subdomain: string,
  recordType: RecordKind,
  target: string,
  entry: Entry,
  evidence: string[],
): Detected {
  return {
    subdomain,
    recordType,
    target,
    service: entry.service,
    ...gradeFor(entry),
    evidence: [
      ...evidence,
      `${entry.service}: ${entry.status} (reviewed ${entry.reviewed}: ${entry.reason})`,
    ],
    explanation: entry.explanation,
    proofOfConcept: entry.proofOfConcept,
    remediation: entry.remediation,
  };
}

const LAME = new Set<Resolution['status']>(['servfail', 'refused', 'timeout']);

function chainText(res: Resolution) {
  const type = res.given?.alias ? 'ALIAS' : 'CNAME';
  return `${res.name} ${type} ${res.chain.join(' → ')} (${answeredBy(res)})`;
}

/**
 * Fresh resolution through another resolver, for validation. A CNAME or alias the zone's records
 * gave is taken again from them (DNS never shows an alias, only the addresses it flattens to);
 * addresses are asked of DNS afresh.
 */
function again(ctx: ScanContext, res: Resolution) {
  const given = res.given?.cname ? { cname: res.given.cname, alias: res.given.alias } : undefined;
  return resolveChain(ctx.dns, res.name, { fresh: true, avoid: res.server }, given);
}

/**
 * The evidence rules for one name, from its resolution: CNAME into a service (unclaimed resource or
 * NXDOMAIN at a service), CNAME into an unregistered domain, a lame NS delegation (`zoneNs`: the
 * delegation as the zone's records give it), an A/AAAA record
 * at a known service address or a silent cloud address. Lookup failures are errors, never findings.
 * Where nothing is left to probe or look up (most names of a zone) the answer comes at once, not
 * as a promise: an async call per name costs its frame on the heap.
 */
export function detectName(
  ctx: ScanContext,
  res: Resolution,
  zoneNs: readonly string[] = [],
): Candidate[] | Promise<Candidate[]> {
  if (isServiceHost(res.name, ctx.settings.catalogue)) return [];
  if (res.status !== 'exists' && res.status !== 'nxdomain') {
    // A lame delegation shows as SERVFAIL or REFUSED, or as a timeout where its servers drop questions.
    if (res.chain.length === 0 && LAME.has(res.status)) return detectDelegation(ctx, res.name, zoneNs);
    if (res.status === 'invalid') {
      ctx.error('resolve', `${res.terminal} CNAME ${res.code}: not a host name; not followed`, res.name);
    } else if (res.status === 'loop' || res.status === 'too-deep') {
      ctx.error('resolve', `CNAME ${res.status}: ${res.name} → ${res.chain.join(' → ')}`, res.name);
    } else if (res.status !== 'servfail' || res.chain.length > 0) {
      ctx.error('resolve', `${res.status} (${res.code ?? ''}) resolving ${res.terminal}`, res.name);
    }
    return [];
  }
  // `_dmarc`, `s1._domainkey`, `_sip._tcp`: service labels name records, never a web site, so a
  // service's page cannot be evidence for them; only the DNS rules (gone, unregistered) apply.
  const serviceLabel = /(?:^|\.)_/.test(res.name);
  if (res.chain.length === 0)
    return res.status === 'exists' && !serviceLabel && addressesToCheck(ctx, res)
      ? detectAddresses(ctx, res)
      : [];
  const judged = serviceLabel ? undefined : cloudResources(ctx, res);
  if (judged) return judged;
  const entries = serviceLabel
    ? []
    : [...new Set(res.chain.flatMap((hop) => entriesForCname(hop, ctx.settings.catalogue)))];
  if (res.status === 'nxdomain') return detectGoneTarget(ctx, res, entries);
  if (entries.length > 0) return detectLiveTarget(ctx, res, entries);
  // A known service under a suffix the references do not document: its fingerprint decides.
  const related = serviceLabel ? [] : relatedEntries(ctx, res);
  if (related.length > 0) return detectLiveTarget(ctx, res, related, true);
  // A CNAME into a host at a service's own address (a custom domain through a host of one's own).
  return serviceLabel || !atServiceAddress(ctx, res) ? [] : serviceAddresses(ctx, res);
}

const atServiceAddress = (ctx: ScanContext, res: Resolution) =>
  [...res.a, ...res.aaaa].some((address) => entriesForIp(address, ctx.settings.catalogue).length > 0);

function relatedEntries(ctx: ScanContext, res: Resolution) {
  // A provider's own apex (agilecrm.com) is its site, never an unclaimed resource of it.
  const hops = res.chain.filter((hop) => registrableDomain(hop) !== hop);
  return [...new Set(hops.flatMap((hop) => entriesForRegistrable(hop, ctx.settings.catalogue)))];
}

/** An address at a known service or in a cloud range: the only addresses `detectAddresses` looks at. */
function addressesToCheck(ctx: ScanContext, res: Resolution) {
  for (const list of [res.a, res.aaaa])
    for (const address of list)
      if (
        entriesForIp(address, ctx.settings.catalogue).length > 0 ||
        ctx.cloudProvider(address) !== undefined
      )
        return true;
  return false;
}

async function detectGoneTarget(ctx: ScanContext, res: Resolution, entries: Entry[]): Promise<Candidate[]> {
  const target = res.terminal;
  const evidence = [chainText(res), `${target}: NXDOMAIN`];
  const stillGone = async () => {
    const fresh = await again(ctx, res);
    return fresh.status === 'nxdomain' && fresh.terminal === target
      ? `confirmed NXDOMAIN for ${target} via ${answeredBy(fresh)}`
      : undefined;
  };
  const atService = entries.find((e) => e.dns === 'nxdomain');
  if (atService) {
    return [
      {
        kind: 'nxdomain-at-service',
        finding: entryFinding(res.name, 'CNAME', target, atService, evidence),
        recheck: stillGone,
      },
    ];
  }
  const unregistered = await ctx.unregistered(target);
  if (unregistered) {
    return [
      unregisteredCandidate(ctx, {
        subdomain: res.name,
        recordType: 'CNAME',
        target,
        registrable: unregistered,
        evidence,
        alsoHolds: stillGone,
      }),
    ];
  }
  // A service that hands out its names itself (BadDNS's negative signatures): nobody can claim it.
  if (knownSafeCname(target)) return [];
  // Under a top-level domain that does not exist nobody can register anything: broken, not claimable.
  if (!parse(target).isIcann) return [];
  const registrable = registrableDomain(target);
  const entry = entries[0];
  return [
    {
      kind: 'dangling-cname',
      finding: {
        subdomain: res.name,
        recordType: 'CNAME',
        target,
        service: entry?.service ?? (registrable || target),
        status: 'review',
        risk: 'low',
        evidence,
        ...danglingCnameTexts(target),
      },
      recheck: stillGone,
    },
  ];
}

async function detectLiveTarget(
  ctx: ScanContext,
  res: Resolution,
  entries: Entry[],
  unknownSuffix = false,
): Promise<Candidate[]> {
  const address = firstAddress(res.a, res.aaaa);
  if (!address) return [];
  const candidates: Candidate[] = [];
  const pointsAt = (hop: string, entry: Entry) =>
    (unknownSuffix
      ? entriesForRegistrable(hop, ctx.settings.catalogue)
      : entriesForCname(hop, ctx.settings.catalogue)
    ).includes(entry);
  for (const entry of entries) {
    if (entry.dns !== 'resolves') continue;
    const first = await webEvidence(ctx, res.name, address, entry, false, !unknownSuffix);
    if (first.length === 0) continue;
    const target = res.terminal;
    const finding = entryFinding(res.name, 'CNAME', target, entry, [chainText(res), ...first]);
    if (unknownSuffix) {
      // The claim path for this suffix is not documented: at most likely.
      finding.evidence.push(
        `${target} is in ${registrableDomain(target)}, ${entry.service}'s domain, under a suffix the references do not document (they list ${entry.cname.join(', ')})`,
      );
      if (finding.status === 'claimable') finding.status = 'likely';
    }
    candidates.push({
      kind: 'unclaimed-resource',
      finding,
      recheck: async () => {
        const fresh = await again(ctx, res);
        const freshAddress = firstAddress(fresh.a, fresh.aaaa);
        if (fresh.status !== 'exists' || !freshAddress) return undefined;
        if (!fresh.chain.some((hop) => pointsAt(hop, entry))) return undefined;
        const second = await webEvidence(ctx, res.name, freshAddress, entry, true, !unknownSuffix);
        return second.length > 0 ? `confirmed via ${answeredBy(fresh)}: ${second.join('; ')}` : undefined;
      },
    });
  }
  return candidates;
}

const recordOf = (address: string): RecordKind => (address.includes(':') ? 'AAAA' : 'A');

/**
 * The name's addresses at a catalogue service, with the service's page: an A/AAAA record at the
 * address, or a CNAME chain ending there (reported at the CNAME).
 */
async function serviceAddresses(ctx: ScanContext, res: Resolution): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const aliased = res.chain.length > 0;
  for (const address of [...res.a, ...res.aaaa]) {
    for (const entry of entriesForIp(address, ctx.settings.catalogue)) {
      const first = await webEvidence(ctx, res.name, address, entry);
      if (first.length === 0) continue;
      const at = `${aliased ? res.terminal : res.name} ${recordOf(address)} ${address} (${answeredBy(res)})`;
      candidates.push({
        kind: 'unclaimed-resource',
        finding: aliased
          ? entryFinding(res.name, 'CNAME', res.terminal, entry, [chainText(res), at, ...first])
          : entryFinding(res.name, recordOf(address), address, entry, [at, ...first]),
        recheck: async () => {
          const fresh = await again(ctx, res);
          if (![...fresh.a, ...fresh.aaaa].includes(address)) return undefined;
          const second = await webEvidence(ctx, res.name, address, entry, true);
          return second.length > 0 ? `confirmed: ${second.join('; ')}` : undefined;
        },
      });
    }
  }
  return candidates;
}

/**
 * A CNAME whose chain reaches a resource a connected account has now: ours, nothing to find. One it
 * had (a bucket, a distribution, an environment, a site) and has not had for longer than its grace
 * period: from the account's own memory, before any fingerprint is asked, graded claimable for the
 * proof phase to keep only where the provider says the name is free (likely where nobody can ask,
 * review where another account holds it). Undefined when no connected account knows any hop (the
 * catalogue decides).
 */
const GOOGLE_STORAGE_HOST = 'c.storage.googleapis.com';

function cloudResources(ctx: ScanContext, res: Resolution): Candidate[] | undefined {
  const memory = ctx.cloudMemory;
  if (!memory) return undefined;
  // A bucket named like the name itself, served through Google's shared storage host, is known by
  // the name, not by the hop.
  const hops = res.chain.includes(GOOGLE_STORAGE_HOST) ? [res.name, ...res.chain] : res.chain;
  const verdicts = hops.map((hop) => ({ hop, verdict: memory.host(hop) }));
  if (verdicts.some((v) => v.verdict?.verdict === 'held' || v.verdict?.verdict === 'grace')) return [];
  for (const { hop, verdict } of verdicts) {
    if (verdict?.verdict !== 'released') continue;
    const { account, item } = verdict;
    const cloud = CLOUD_NAMES[account.cloud];
    return [
      {
        kind: 'released-resource',
        finding: {
          subdomain: res.name,
          recordType: 'CNAME',
          target: hop === res.name ? GOOGLE_STORAGE_HOST : hop,
          service: cloud,
          // The account's memory says it is gone; only the provider can say nobody else took it.
          status: 'claimable',
          risk: 'high',
          evidence: [
            chainText(res),
            `${hop}: the ${item.type} ${item.name} of the ${cloud} account ${accountName(account)}, last seen ${item.lastSeenAt}; the account's reads since (the last at ${account.lastSyncAt}) do not list it`,
          ],
          ...releasedResourceTexts(hop, item.type, cloud, account.label, item.lastSeenAt),
        },
        recheck: async () => {
          const fresh = await again(ctx, res);
          return fresh.chain.includes(hop) || (hop === res.name && fresh.chain.includes(GOOGLE_STORAGE_HOST))
            ? `${res.name} still leads to ${hop === res.name ? GOOGLE_STORAGE_HOST : hop} (${answeredBy(fresh)})`
            : undefined;
        },
      },
    ];
  }
  return undefined;
}

/**
 * An address in a connected cloud's ranges, judged from the accounts' memory instead of a probe:
 * held now, nothing; released longer ago than the grace period, likely; never held by any connected
 * account, review. Undefined when no account of that cloud is connected (the probe decides).
 */
function cloudAccountAddress(ctx: ScanContext, res: Resolution, address: string): Candidate[] | undefined {
  const range = ctx.cloudRange(address);
  const verdict = ctx.cloudMemory?.address(address, range);
  if (!verdict || !range) return undefined;
  if (verdict.verdict === 'held' || verdict.verdict === 'grace') return [];
  const record = `${res.name} ${recordOf(address)} ${address} (${answeredBy(res)})`;
  const recheck = async () => {
    const fresh = await again(ctx, res);
    return [...fresh.a, ...fresh.aaaa].includes(address)
      ? `${res.name} still answers ${address} (${answeredBy(fresh)})`
      : undefined;
  };
  if (verdict.verdict === 'foreign') {
    return [
      {
        kind: 'released-address',
        finding: {
          subdomain: res.name,
          recordType: recordOf(address),
          target: address,
          service: range.provider,
          status: 'review',
          risk: 'medium',
          evidence: [
            record,
            `${address} is in ${range.provider}'s ranges (${range.cidr}); none of your connected ${range.provider} accounts holds it or ever did`,
          ],
          ...foreignCloudAddressTexts(address, range.provider),
        },
        recheck,
      },
    ];
  }
  const { account, item } = verdict;
  return [
    {
      kind: 'released-address',
      finding: {
        subdomain: res.name,
        recordType: recordOf(address),
        target: address,
        service: range.provider,
        status: 'likely',
        risk: 'high',
        evidence: [
          record,
          `${address} was held by the ${range.provider} account ${accountName(account)} (${item.type} ${item.name}), last seen ${item.lastSeenAt}; the account's reads since (the last at ${account.lastSyncAt}) do not list it`,
        ],
        ...releasedAddressTexts(address, range.provider, account.label, item.lastSeenAt),
      },
      recheck,
    },
  ];
}

async function detectAddresses(ctx: ScanContext, res: Resolution): Promise<Candidate[]> {
  const candidates = await serviceAddresses(ctx, res);
  if (candidates.length > 0) return candidates;
  for (const address of [...res.a, ...res.aaaa]) {
    const judged = cloudAccountAddress(ctx, res, address);
    if (judged) {
      candidates.push(...judged);
      continue;
    }
    const provider = ctx.cloudProvider(address);
    if (!provider) continue;
    const silent = await isSilent(ctx, res.name, address, false);
    if (!silent) continue;
    candidates.push({
      kind: 'cloud-ip',
      finding: {
        subdomain: res.name,
        recordType: recordOf(address),
        target: address,
        service: provider,
        status: 'review',
        risk: 'low',
        evidence: [`${res.name} ${recordOf(address)} ${address} (${provider})`, silent],
        ...cloudIpTexts(address, provider),
      },
      recheck: async () => {
        const fresh = await again(ctx, res);
        if (![...fresh.a, ...fresh.aaaa].includes(address)) return undefined;
        return isSilent(ctx, res.name, address, true);
      },
    });
  }
  return candidates;
}

/** Probe stops that leave an address silent: nothing connects, or nothing answers once connected. */
const SILENT = new Set(['refused', 'reset', 'timeout', 'slow']);

/** Neither HTTP nor HTTPS accepts a connection; a refused address (SSRF guard) is not "silent". */
async function isSilent(ctx: ScanContext, host: string, address: string, fresh: boolean) {
  const results = await Promise.all(
    (['http', 'https'] as const).map((scheme) => ctx.probe(host, address, scheme, undefined, fresh)),
  );
  for (const result of results) {
    if (result.error?.kind === 'blocked') ctx.error('detect', result.error.message, host);
  }
  const dead = results.every((r) => r.responses.length === 0 && SILENT.has(r.error?.kind ?? ''));
  return dead
    ? `no answer on HTTP or HTTPS: ${results.map((r) => `${r.scheme} ${r.error?.kind}`).join(', ')}`
    : undefined;
}
