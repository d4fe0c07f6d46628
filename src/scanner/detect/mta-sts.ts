import type { Candidate, ScanContext } from '../context.ts';
import { resolveChain } from '../dns/chain.ts';
import { inZone, isHostName } from '../dns/names.ts';
import { parseMx } from '../dns/resolver.ts';
import { knownSafeCname } from '../fingerprints/known-safe.ts';
import { entriesForCname } from '../fingerprints/match.ts';
import { mtaStsTexts } from '../report/texts.ts';
import { firstAddress } from './web.ts';

/** The policy a sending server reads (RFC 8461 §3.2): its mode and the MX patterns it allows. */
export interface MtaStsPolicy {
  mode: string | undefined;
  mx: string[];
}

export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { mode: undefined, mx: [] };
  for (const line of text.split(/\r?\n/).slice(0, 200)) {
    const match = /^\s*([a-z_]+)\s*:\s*(\S+)\s*$/i.exec(line);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key.toLowerCase() === 'mode') policy.mode = value.toLowerCase();
    if (key.toLowerCase() === 'mx') policy.mx.push(value.toLowerCase().replace(/\.$/, ''));
  }
  return policy;
}

/** An MX host allowed by a policy pattern: exact, or `*.` standing for exactly one label. */
export function mxAllowed(host: string, patterns: readonly string[]) {
  return patterns.some((pattern) =>
    pattern.startsWith('*.')
      ? host.endsWith(pattern.slice(1)) && !host.slice(0, -pattern.length + 1).includes('.')
      : host === pattern,
  );
}

const POLICY_PATH = '/.well-known/mta-sts.txt';

/**
 * MTA-STS, checked only where `_mta-sts.<domain>` publishes a record: the policy host must serve
 * the policy (a dangling `mta-sts` CNAME is found with the zone's names), and an enforced policy
 * must allow every MX host. A policy nobody can read, or one that refuses the domain's own MX, is
 * `review`: it breaks or weakens delivery, and says where to look, but hands nothing to anyone.
 */
export async function detectMtaSts(
  ctx: ScanContext,
  domain: string,
  mx: readonly string[],
): Promise<Candidate[]> {
  const record = `_mta-sts.${domain}`;
  const txt = await ctx.dns.query(record, 'TXT');
  if (txt.status !== 'ok' || !txt.records.some((r) => /^\s*v=STSv1\s*(;|$)/i.test(r))) return [];
  const host = `mta-sts.${domain}`;
  const res = await resolveChain(ctx.dns, host);
  // A CNAME that ends in NXDOMAIN is the resolve phase's finding; a name that fails to resolve is an error there.
  if (res.status !== 'exists' && !(res.status === 'nxdomain' && res.chain.length === 0)) return [];
  const address = firstAddress(res.a, res.aaaa);
  const finding = (problem: string, evidence: string[], recheck: Candidate['recheck']): Candidate => ({
    kind: 'mail',
    finding: {
      subdomain: record,
      recordType: 'TXT',
      target: host,
      service: 'MTA-STS policy',
      status: 'review',
      risk: 'low',
      evidence: [`${record} TXT "${txt.records.join(' ')}"`, ...evidence],
      ...mtaStsTexts(domain, problem),
    },
    recheck,
  });
  const read = async (fresh: boolean) => {
    if (!address) return { problem: `${host} does not exist`, policy: undefined };
    const result = await ctx.probe(host, address, 'https', undefined, fresh, POLICY_PATH);
    const response = result.responses.find((r) => r.host === host);
    if (!response)
      return { problem: `the policy host does not answer (${result.error?.kind ?? 'no response'})` };
    if (response.status < 200 || response.status > 299)
      return { problem: `the policy is unreachable (HTTP ${response.status})` };
    return { policy: parseMtaStsPolicy(response.body) };
  };
  const first = await read(false);
  if (!first.policy) {
    const problem = first.problem as string;
    return [
      finding(problem, [`https://${host}${POLICY_PATH}: ${problem}`], async () => (await read(true)).problem),
    ];
  }
  const exchanges = mx.map((r) => parseMx(r).exchange).filter((h) => h && h !== '.');
  const dangling = await danglingPolicyHosts(ctx, record, host, first.policy, exchanges);
  if (first.policy.mode !== 'enforce') return dangling;
  const refused = (policy: MtaStsPolicy) => exchanges.filter((h) => !mxAllowed(h, policy.mx));
  const outside = refused(first.policy);
  if (outside.length === 0) return dangling;
  const problem = `its enforced policy allows ${first.policy.mx.join(', ') || 'no MX host'}, not ${outside.join(', ')}`;
  return [
    finding(
      problem,
      [`MX ${domain}: ${exchanges.join(', ')}; policy mx: ${first.policy.mx.join(', ')}`],
      async () => {
        const again = await read(true);
        return again.policy && refused(again.policy).length > 0 ? `policy read again: ${problem}` : undefined;
      },
    ),
  ];
}

/**
 * The policy's own `mx:` hosts (not MX hosts already checked as such) that dangle: senders
 * enforcing the policy accept whoever holds one for this domain's mail once an MX points there.
 * In a domain nobody has registered, or a name at a service whose missing names anyone can create
 * (a CNAME into a deleted Azure app): `likely`, as no MX points there yet. A name that no longer
 * exists in another registered domain: `review`, as only that domain's owner can create it again.
 */
async function danglingPolicyHosts(
  ctx: ScanContext,
  record: string,
  host: string,
  policy: MtaStsPolicy,
  exchanges: readonly string[],
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const domain = ctx.settings.domain;
  const dangling = (
    target: string,
    f: { service: string; status: 'likely' | 'review'; evidence: string[]; problem: string },
    recheck: Candidate['recheck'],
  ): Candidate => ({
    kind: 'mail',
    finding: {
      subdomain: record,
      recordType: 'TXT',
      target,
      service: f.service,
      status: f.status,
      risk: f.status === 'likely' ? 'medium' : 'low',
      evidence: f.evidence,
      ...mtaStsTexts(domain, f.problem),
    },
    recheck,
  });
  for (const pattern of policy.mx.slice(0, 10)) {
    const target = pattern.replace(/^\*\./, '');
    if (!isHostName(target) || exchanges.includes(target)) continue;
    const allows = `https://${host}${POLICY_PATH} allows mx: ${pattern}`;
    const registrable = inZone(target, domain) ? undefined : await ctx.unregistered(target);
    if (registrable) {
      out.push(
        dangling(
          target,
          {
            service: `unregistered domain ${registrable}`,
            status: 'likely',
            evidence: [allows, `${registrable} is not registered (RDAP 404, no delegation in DNS)`],
            problem: `its policy allows mail servers under ${registrable}, a domain nobody has registered`,
          },
          async () =>
            (await ctx.unregistered(target, true)) ? `RDAP still 404 for ${registrable}` : undefined,
        ),
      );
      continue;
    }
    // A `*.` pattern names no host of its own to look up; its domain's registration is all it shows.
    if (pattern.startsWith('*.')) continue;
    const res = await resolveChain(ctx.dns, target);
    if (res.status !== 'nxdomain' || knownSafeCname(res.terminal)) continue;
    // A missing name of the zone itself is for its owner alone to create, as the policy's author is.
    if (res.chain.length === 0 && inZone(target, domain)) continue;
    const entry = entriesForCname(res.terminal, ctx.settings.catalogue).find(
      (e) => e.dns === 'nxdomain' && e.status !== 'not-vulnerable',
    );
    const chain = res.chain.length > 0 ? `${target} CNAME ${res.chain.join(' → ')}: ` : '';
    out.push(
      dangling(
        target,
        {
          service: entry?.service ?? 'MTA-STS policy',
          status: entry ? 'likely' : 'review',
          evidence: [allows, `${chain}${res.terminal}: NXDOMAIN (resolver ${res.server})`],
          problem: entry
            ? `its policy allows ${target}, a name at ${entry.service} that no longer exists and anyone can create`
            : `its policy allows ${target}, a mail server that no longer exists`,
        },
        async () => {
          const fresh = await resolveChain(ctx.dns, target, { fresh: true, avoid: res.server });
          return fresh.status === 'nxdomain' ? `confirmed NXDOMAIN via resolver ${fresh.server}` : undefined;
        },
      ),
    );
  }
  return out;
}
