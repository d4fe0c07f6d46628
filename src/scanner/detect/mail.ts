import type { Candidate, ScanContext } from '../context.ts';
import { resolveChain } from '../dns/chain.ts';
import { isHostName } from '../dns/names.ts';
import { parseMx } from '../dns/resolver.ts';
import { entriesForMx } from '../fingerprints/match.ts';
import { danglingMxTexts, dmarcTexts, gradeFor, spfNxTexts } from '../report/texts.ts';
import { unregisteredCandidate } from './unregistered.ts';

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
    const registrable = await ctx.unregistered(exchange);
    if (registrable) {
      candidates.push(
        unregisteredCandidate(ctx, {
          subdomain: apex,
          recordType: 'MX',
          target: exchange,
          registrable,
          evidence: [`${apex} MX ${exchange}`],
        }),
      );
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
    for (const include of spfTargets(record)) {
      const registrable = await ctx.unregistered(include);
      if (registrable) {
        candidates.push(
          unregisteredCandidate(ctx, {
            subdomain: apex,
            recordType: 'TXT',
            target: include,
            registrable,
            evidence: [`${apex} TXT "${record}"`],
          }),
        );
        continue;
      }
      const outcome = await ctx.dns.query(include, 'TXT');
      if (outcome.status !== 'nxdomain') continue;
      candidates.push({
        kind: 'mail',
        finding: {
          subdomain: apex,
          recordType: 'TXT',
          target: include,
          service: 'SPF include',
          status: 'review',
          risk: 'low',
          evidence: [`${apex} TXT "${record}"`, `${include}: NXDOMAIN (resolver ${outcome.server})`],
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
      const registrable = await ctx.unregistered(host);
      if (!registrable) continue;
      candidates.push({
        kind: 'mail',
        finding: {
          subdomain: name,
          recordType: 'TXT',
          target: host,
          service: `unregistered domain ${registrable}`,
          status: 'claimable',
          risk: 'high',
          evidence: [`${name} TXT "${record}"`, `${registrable} is not registered (RDAP 404, NXDOMAIN)`],
          ...dmarcTexts(host, registrable),
        },
        recheck: async () =>
          (await ctx.unregistered(host, true)) ? `RDAP still 404 and NXDOMAIN for ${registrable}` : undefined,
      });
    }
  }
  return candidates;
}

/** The apex's own nameservers in a domain nobody has registered. */
export async function detectApexNs(ctx: ScanContext, apex: string, ns: string[]) {
  const candidates: Candidate[] = [];
  for (const server of ns.filter(isHostName)) {
    const registrable = await ctx.unregistered(server);
    if (!registrable) continue;
    candidates.push(
      unregisteredCandidate(ctx, {
        subdomain: apex,
        recordType: 'NS',
        target: server,
        registrable,
        evidence: [`${apex} NS ${server}`],
      }),
    );
  }
  return candidates;
}
