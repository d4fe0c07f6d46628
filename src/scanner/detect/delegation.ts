import { getPublicSuffix } from 'tldts';
import type { Candidate, ScanContext } from '../context.ts';
import { queryDirect } from '../dns/direct.ts';
import { isHostName, normaliseName } from '../dns/names.ts';
import { entriesForNs } from '../fingerprints/match.ts';
import { lameDelegationTexts } from '../report/texts.ts';
import { gradeFor } from './grade.ts';
import { unregisteredCandidate } from './unregistered.ts';

/** What each delegated server says about the zone; undefined when none could be asked. */
async function askServers(ctx: ScanContext, name: string, servers: string[], fresh: boolean) {
  const answers: Answer[] = [];
  for (const server of servers) {
    const a = await ctx.dns.query(server, 'A', { fresh });
    if (a.status !== 'ok') continue;
    for (const address of a.records.slice(0, 2)) {
      const reply = await queryDirect(address, ctx.settings.nameserverPort, name, 'SOA', {
        timeoutMs: ctx.settings.timeoutMs,
        tries: 2,
        allowPrivate: ctx.settings.allowPrivate,
        signal: ctx.signal,
      });
      if (reply.rcode === 'BLOCKED') {
        ctx.error('detect', `${server} is at ${address}, a private address: not asked`, name);
        continue;
      }
      if (reply.rcode === 'TIMEOUT') continue;
      answers.push({
        text: `${server} (${address}) ${reply.rcode}${reply.authoritative ? ' authoritative' : ''}`,
        holds: reply.authoritative && (reply.rcode === 'NOERROR' || reply.rcode === 'NXDOMAIN'),
      });
    }
  }
  return answers;
}

/**
 * Every server that answered disowns the zone: REFUSED, SERVFAIL, or an answer without the
 * authoritative flag (a server that does not hold a zone may still answer, from cache or with a
 * referral upwards). A server that stays silent proves nothing; at least one must have answered.
 */
const zoneGone = (answers: Answer[]) => answers.length > 0 && answers.every((answer) => !answer.holds);

interface Answer {
  text: string;
  /** The server answered with authority: it holds the zone (or a parent of it). */
  holds: boolean;
}

/** The nameservers of the scanned domain's public suffix (the registry), for the apex's own referral. */
async function registryNameservers(ctx: ScanContext) {
  const suffix = getPublicSuffix(ctx.settings.domain, { allowPrivateDomains: false });
  if (!suffix) return [];
  const ns = await ctx.dns.query(suffix, 'NS');
  return ns.status === 'ok' ? ns.records.filter(isHostName).slice(0, 3) : [];
}

/**
 * The NS set of a name, from the resolvers; failing that from the parent's nameservers (the zone's
 * own for a subdomain, the registry's for the apex), because many recursive resolvers answer
 * SERVFAIL even for the NS set of a lame delegation, while the parent still hands out the referral.
 */
async function delegationOf(ctx: ScanContext, name: string) {
  const ns = await ctx.dns.query(name, 'NS');
  const named = ns.status === 'ok' ? ns.records.filter(isHostName) : [];
  if (named.length > 0) return { servers: named, via: `resolver ${ns.server}` };
  const apex = name === ctx.settings.domain;
  const parents = apex ? await registryNameservers(ctx) : ctx.apexNameservers;
  for (const parent of parents) {
    const a = await ctx.dns.query(parent, 'A');
    if (a.status !== 'ok') continue;
    const reply = await queryDirect(a.records[0] as string, ctx.settings.nameserverPort, name, 'NS', {
      timeoutMs: ctx.settings.timeoutMs,
      tries: 2,
      allowPrivate: ctx.settings.allowPrivate,
      signal: ctx.signal,
    });
    const servers = [...reply.answers, ...reply.authorities].flatMap((record) => {
      const server = record.type === 'NS' ? normaliseName(record.data) : '';
      return normaliseName(record.name) === name && isHostName(server) ? [server] : [];
    });
    if (servers.length > 0)
      return {
        servers,
        via: apex ? `the registry's nameserver ${parent}` : `the zone's nameserver ${parent}`,
      };
  }
  return undefined;
}

/**
 * A name whose resolution fails may be delegated to DNS hosts that dropped the zone. The NS records
 * come from the resolvers; the zone check goes straight to each delegated server (non-recursive),
 * because only its own answer (REFUSED, SERVFAIL) tells a missing zone from a passing outage.
 */
export async function detectDelegation(
  ctx: ScanContext,
  name: string,
  zoneServers: readonly string[] = [],
): Promise<Candidate[]> {
  // The zone's own NS records for the name are the delegation: nobody needs to be asked for it.
  const delegation =
    zoneServers.length > 0
      ? { servers: [...zoneServers], via: "the zone's records" }
      : await delegationOf(ctx, name);
  if (!delegation) {
    ctx.error('resolve', `${name}: resolution failed and no delegation was found`, name);
    return [];
  }
  const servers = delegation.servers;
  const candidates: Candidate[] = [];
  for (const server of servers) {
    const registrable = await ctx.unregistered(server);
    if (!registrable) continue;
    candidates.push(
      unregisteredCandidate(ctx, {
        subdomain: name,
        recordType: 'NS',
        target: server,
        registrable,
        evidence: [`${name} NS ${servers.join(', ')}`],
      }),
    );
  }
  if (candidates.length > 0) return candidates;
  const answers = await askServers(ctx, name, servers, false);
  if (answers.length === 0) {
    ctx.error('detect', `${name}: no delegated nameserver could be asked`, name);
    return [];
  }
  if (!zoneGone(answers)) return [];
  const entry = servers.flatMap((server) => entriesForNs(server, ctx.settings.catalogue))[0];
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
        evidence: [
          `${name} NS ${servers.join(', ')} (from ${delegation.via})`,
          ...answers.map((a) => a.text),
        ],
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
        return zoneGone(again) ? `asked again: ${again.map((a) => a.text).join('; ')}` : undefined;
      },
    },
  ];
}
