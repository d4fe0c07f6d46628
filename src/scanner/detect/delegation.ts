import type { Candidate, ScanContext } from '../context.ts';
import { queryDirect } from '../dns/direct.ts';
import { entriesForNs } from '../fingerprints/match.ts';
import { gradeFor, lameDelegationTexts, unregisteredTexts } from '../report/texts.ts';

/** What each delegated server says about the zone; undefined when none could be asked. */
async function askServers(ctx: ScanContext, name: string, servers: string[], fresh: boolean) {
  const answers: string[] = [];
  for (const server of servers) {
    const a = await ctx.dns.query(server, 'A', { fresh });
    if (a.status !== 'ok') continue;
    for (const address of a.records.slice(0, 2)) {
      const reply = await queryDirect(address, ctx.settings.nameserverPort, name, 'SOA', {
        timeoutMs: ctx.settings.timeoutMs,
        tries: 2,
        signal: ctx.signal,
      });
      answers.push(`${server} (${address}) ${reply.rcode}${reply.authoritative ? ' authoritative' : ''}`);
    }
  }
  return answers;
}

const zoneGone = (answers: string[]) =>
  answers.length > 0 && answers.every((answer) => /\b(REFUSED|SERVFAIL)$/.test(answer));

/**
 * A name whose resolution fails may be delegated to DNS hosts that dropped the zone. The NS records
 * come from the resolvers; the zone check goes straight to each delegated server (non-recursive),
 * because only its own answer (REFUSED, SERVFAIL) tells a missing zone from a passing outage.
 */
export async function detectDelegation(ctx: ScanContext, name: string): Promise<Candidate[]> {
  const ns = await ctx.dns.query(name, 'NS');
  if (ns.status !== 'ok' || ns.records.length === 0) {
    ctx.error('resolve', `${name}: resolution failed (${ns.status}) and no delegation was found`, name);
    return [];
  }
  const servers = ns.records;
  const candidates: Candidate[] = [];
  for (const server of servers) {
    const registrable = await ctx.unregistered(server);
    if (!registrable) continue;
    candidates.push({
      kind: 'unregistered-domain',
      finding: {
        subdomain: name,
        recordType: 'NS',
        target: server,
        service: `unregistered domain ${registrable}`,
        status: 'claimable',
        risk: 'high',
        evidence: [
          `${name} NS ${servers.join(', ')}`,
          `${registrable} is not registered (RDAP 404, NXDOMAIN)`,
        ],
        ...unregisteredTexts('NS', server, registrable),
      },
      recheck: async () =>
        (await ctx.unregistered(server, true)) ? `RDAP still 404 and NXDOMAIN for ${registrable}` : undefined,
    });
  }
  if (candidates.length > 0) return candidates;
  const answers = await askServers(ctx, name, servers, false);
  if (answers.length === 0) {
    ctx.error('detect', `${name}: no delegated nameserver could be asked`, name);
    return [];
  }
  if (!zoneGone(answers)) return [];
  const entry = servers.flatMap((server) => entriesForNs(server))[0];
  const grade = entry ? gradeFor(entry) : { status: 'review' as const, risk: 'medium' as const };
  return [
    {
      kind: 'zone-missing',
      finding: {
        subdomain: name,
        recordType: 'NS',
        target: servers.join(', '),
        service: entry?.service ?? 'unknown DNS host',
        ...grade,
        evidence: [`${name} NS ${servers.join(', ')} (resolver ${ns.server})`, ...answers],
        ...(entry
          ? {
              explanation: entry.explanation,
              proofOfConcept: entry.proofOfConcept,
              remediation: entry.remediation,
            }
          : lameDelegationTexts(servers)),
      },
      recheck: async () => {
        const again = await askServers(ctx, name, servers, true);
        return zoneGone(again) ? `asked again: ${again.join('; ')}` : undefined;
      },
    },
  ];
}
