import type { Candidate, ScanContext } from '../context.ts';
import { outsideTxtHosts } from '../discover/txt-names.ts';
import { resolveChain } from '../dns/chain.ts';
import { inZone, isHostName } from '../dns/names.ts';
import { parseMx } from '../dns/resolver.ts';
import { entriesForCname, entriesForMx } from '../fingerprints/match.ts';
import { danglingMxTexts, dmarcTexts, spfNxTexts, txtHostTexts } from '../report/texts.ts';
import { gradeFor } from './grade.ts';
import { ifUnregistered } from './unregistered.ts';

/** DNS lookups an SPF evaluation may make (RFC 7208 §4.6.4): includes past it are never read. */
const SPF_LOOKUPS = 10;

/** `include:` and `redirect=` targets of an SPF record. */
export function spfTargets(txt: string): string[] {
  if (!/^v=spf1(\s|$)/i.test(txt)) return [];
  const out: string[] = [];
  for (const term of txt.split(/\s+/)) {
    const match = /^[+?~-]?include:(.+)$/i.exec(term) ?? /^redirect=(.+)$/i.exec(term);
    const target = match?.[1]?.toLowerCase().replace(/\.$/, '');
    // Macros (%{d}) expand per message and name no fixed domain; the rest must be a host name.
    if (target && isHostName(target)) out.push(target);
  }
  return out;
}

/** The apex's mail records: MX hosts (gone, unregistered, at a mail service) and SPF includes. */
export async function detectMail(ctx: ScanContext, apex: string, mx: string[], txt: string[]) {
  const candidates: Candidate[] = [];
  for (const record of mx) {
    const { exchange } = parseMx(record);
    if (!isHostName(exchange)) continue;
    const claimable = await ifUnregistered(ctx, {
      subdomain: apex,
      recordType: 'MX',
      target: exchange,
      evidence: [`${apex} MX ${exchange}`],
    });
    if (claimable) {
      candidates.push(claimable);
      continue;
    }
    const res = await resolveChain(ctx.dns, exchange);
    if (res.status !== 'nxdomain') continue;
    const entry = entriesForMx(exchange, ctx.settings.catalogue)[0];
    candidates.push({
      kind: 'mail',
      finding: {
        subdomain: apex,
        recordType: 'MX',
        target: exchange,
        service: entry?.service ?? 'mail server',
        ...(entry ? gradeFor(entry) : { status: 'review' as const, risk: 'low' as const }),
        evidence: [`${apex} MX ${exchange}`, `${res.terminal}: NXDOMAIN (resolver ${res.server})`],
        ...(entry
          ? {
              explanation: entry.explanation,
              proofOfConcept: entry.proofOfConcept,
              remediation: entry.remediation,
            }
          : danglingMxTexts(exchange)),
      },
      recheck: async () => {
        const fresh = await resolveChain(ctx.dns, exchange, { fresh: true, avoid: res.server });
        return fresh.status === 'nxdomain' ? `confirmed NXDOMAIN via resolver ${fresh.server}` : undefined;
      },
    });
  }
  for (const record of txt) {
    // SPF's own limit: 10 DNS lookups for the whole evaluation, nested includes counted.
    const queue = spfTargets(record).map((include) => ({ include, via: [] as string[] }));
    const seen = new Set(queue.map((q) => q.include));
    for (let lookups = 0; queue.length > 0 && lookups < SPF_LOOKUPS; lookups++) {
      const { include, via } = queue.shift() as { include: string; via: string[] };
      const path = via.length > 0 ? ` (included through ${via.join(' → ')})` : '';
      ctx.notePointer(apex, 'TXT', include);
      const claimable = await ifUnregistered(ctx, {
        subdomain: apex,
        recordType: 'TXT',
        target: include,
        evidence: [`${apex} TXT "${record}"${path}`],
      });
      if (claimable) {
        candidates.push(claimable);
        continue;
      }
      const outcome = await ctx.dns.query(include, 'TXT');
      if (outcome.status === 'ok') {
        // An include's own includes authorise senders for this domain too.
        for (const nested of outcome.records.flatMap(spfTargets)) {
          if (seen.has(nested)) continue;
          seen.add(nested);
          queue.push({ include: nested, via: [...via, include] });
        }
        continue;
      }
      // A missing include of the zone itself is for its owner alone to create: broken, not claimable.
      if (outcome.status !== 'nxdomain' || inZone(include, ctx.settings.domain)) continue;
      candidates.push({
        kind: 'mail',
        finding: {
          subdomain: apex,
          recordType: 'TXT',
          target: include,
          service: 'SPF include',
          status: 'review',
          risk: 'low',
          evidence: [`${apex} TXT "${record}"${path}`, `${include}: NXDOMAIN (resolver ${outcome.server})`],
          ...spfNxTexts(include),
        },
        recheck: async () =>
          (await ctx.dns.query(include, 'TXT', { fresh: true, avoid: outcome.server })).status === 'nxdomain'
            ? `confirmed NXDOMAIN for ${include}`
            : undefined,
      });
    }
  }
  return candidates;
}

/**
 * Host names outside the zone that TXT values name: one in a domain nobody registered, or gone at
 * a service whose missing names anyone can claim, is trusted by whatever reads the record.
 * `likely`: what the record is for, and so what a claim gains, is not known.
 */
export async function detectTxtHosts(ctx: ScanContext, name: string, txt: readonly string[]) {
  const candidates: Candidate[] = [];
  for (const record of txt) {
    for (const host of outsideTxtHosts(record, ctx.settings.domain)) {
      const evidence = [`${name} TXT "${record.slice(0, 200)}"`];
      const registrable = await ctx.unregistered(host);
      const entry = registrable
        ? undefined
        : entriesForCname(host, ctx.settings.catalogue).find(
            (e) => e.dns === 'nxdomain' && e.status !== 'not-vulnerable',
          );
      if (!registrable && !entry) continue;
      const res = entry ? await resolveChain(ctx.dns, host) : undefined;
      if (res && res.status !== 'nxdomain') continue;
      const why = registrable
        ? `lies in ${registrable}, a domain nobody has registered`
        : `does not exist at ${entry?.service}, where anyone can create it`;
      candidates.push({
        kind: 'mail',
        finding: {
          subdomain: name,
          recordType: 'TXT',
          target: host,
          service: registrable ? `unregistered domain ${registrable}` : (entry?.service ?? host),
          status: 'likely',
          risk: 'medium',
          evidence: [
            ...evidence,
            registrable
              ? `${registrable} is not registered (RDAP 404, no delegation in DNS)`
              : `${host}: NXDOMAIN (resolver ${res?.server})`,
          ],
          ...txtHostTexts(name, host, why),
        },
        recheck: async () => {
          if (registrable)
            return (await ctx.unregistered(host, true)) ? `RDAP still 404 for ${registrable}` : undefined;
          const fresh = await resolveChain(ctx.dns, host, { fresh: true, avoid: res?.server });
          return fresh.status === 'nxdomain' ? `confirmed NXDOMAIN for ${host}` : undefined;
        },
      });
    }
  }
  return candidates;
}

/** The domains of a DMARC record's report addresses (`rua=mailto:a@b.example,mailto:…`, `ruf=`). */
export function dmarcReportDomains(txt: string): string[] {
  if (!/^v=DMARC1\s*(;|$)/i.test(txt.trim())) return [];
  const out = new Set<string>();
  for (const tag of txt.split(';')) {
    const match = /^\s*ru[af]\s*=\s*(.*)$/i.exec(tag);
    if (!match) continue;
    for (const uri of (match[1] ?? '').split(',')) {
      // `mailto:reports@example.net!10m`: the size limit after `!` is no part of the address.
      const host = /^\s*mailto:[^@\s]+@([^!\s]+)/i.exec(uri)?.[1]?.toLowerCase().replace(/\.$/, '');
      if (host && isHostName(host)) out.add(host);
    }
  }
  return [...out];
}

/**
 * The DMARC record's report addresses: one in a domain nobody registered hands whoever registers
 * it every aggregate and failure report (who sends mail as the domain, from where, what failed).
 */
export async function detectDmarc(ctx: ScanContext, domain: string) {
  const name = `_dmarc.${domain}`;
  const txt = await ctx.dns.query(name, 'TXT');
  if (txt.status !== 'ok') return [];
  const candidates: Candidate[] = [];
  for (const record of txt.records) {
    for (const host of dmarcReportDomains(record)) {
      ctx.notePointer(name, 'TXT', host);
      const claimable = await ifUnregistered(ctx, {
        subdomain: name,
        recordType: 'TXT',
        target: host,
        evidence: [`${name} TXT "${record}"`],
        texts: (registrable) => dmarcTexts(host, registrable),
      });
      if (claimable) candidates.push(claimable);
    }
  }
  return candidates;
}

/** The apex's own nameservers in a domain nobody has registered. */
export async function detectApexNs(ctx: ScanContext, apex: string, ns: string[]) {
  const candidates: Candidate[] = [];
  for (const server of ns.filter(isHostName)) {
    const claimable = await ifUnregistered(ctx, {
      subdomain: apex,
      recordType: 'NS',
      target: server,
      evidence: [`${apex} NS ${server}`],
    });
    if (claimable) candidates.push(claimable);
  }
  return candidates;
}
