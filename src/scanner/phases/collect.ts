import type { ScanContext } from '../context.ts';
import { fromCertSpotter, fromCrtSh } from '../discover/ct.ts';
import { answerSignature, wildcardProbes } from '../discover/wordlist.ts';
import { type Resolution, resolveChain } from '../dns/chain.ts';
import type { ScanOptions } from '../types.ts';

export interface ApexRecords {
  ns: string[];
  mx: string[];
  txt: string[];
  /** No resolver could answer for the apex at all (SERVFAIL, REFUSED, timeouts): its delegation may be lame. */
  lame: boolean;
}

const APEX_TYPES = ['NS', 'MX', 'TXT'] as const;

/**
 * The apex's NS, MX and TXT records. A domain that does not exist fails the scan: every later
 * "finding" would rest on nothing. One that no resolver answers for is `lame`: the caller checks
 * whether its own delegation points at DNS hosts that dropped the zone, else fails.
 */
export async function apexRecords(ctx: ScanContext): Promise<ApexRecords> {
  const domain = ctx.settings.domain;
  const answers = await Promise.all(APEX_TYPES.map((type) => ctx.dns.query(domain, type)));
  if (answers.every((outcome) => outcome.status === 'nxdomain')) {
    throw new Error(`${domain} does not exist (NXDOMAIN)`);
  }
  const failed = answers.filter((o) => o.status !== 'ok' && o.status !== 'nodata' && o.status !== 'nxdomain');
  if (failed.length === answers.length) return { ns: [], mx: [], txt: [], lame: true };
  const [ns, mx, txt] = answers.map((outcome, i) => {
    if (outcome.status === 'ok') return outcome.records;
    if (outcome.status !== 'nodata' && outcome.status !== 'nxdomain') {
      ctx.error('discover', `${APEX_TYPES[i]} ${domain}: ${outcome.status}`, domain);
    }
    return [];
  });
  return { ns: ns ?? [], mx: mx ?? [], txt: txt ?? [], lame: false };
}

export function unanswered(ctx: ScanContext) {
  return new Error(`the resolvers (${ctx.dns.servers.join(', ')}) give no answer for ${ctx.settings.domain}`);
}

/** Both CT logs at once; each failure is an error of the scan, never its end. */
export function namesFromCt(
  ctx: ScanContext,
  options: ScanOptions,
  defaults: { ctUrl: string; certspotterUrl: string },
) {
  const ctOptions = { timeoutMs: Math.max(ctx.settings.timeoutMs, 30_000), signal: ctx.signal };
  const logs = [
    ['crt.sh', options.ctUrl ?? defaults.ctUrl, fromCrtSh],
    ['Cert Spotter', options.certspotterUrl ?? defaults.certspotterUrl, fromCertSpotter],
  ] as const;
  return Promise.all(
    logs.map(async ([label, url, fetcher]) => {
      if (!url) return [];
      try {
        return await fetcher(url, ctx.settings.domain, ctOptions);
      } catch (error) {
        ctx.signal?.throwIfAborted();
        ctx.error('discover', `${label}: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      }
    }),
  );
}

/**
 * What names nobody would use resolve to: the zone's wildcard, if it has one (a name that exists,
 * or a wildcard CNAME whose target is gone), with one of those names to check the wildcard by.
 */
export async function wildcardOf(
  ctx: ScanContext,
): Promise<{ signatures: Set<string>; probe: Resolution } | undefined> {
  const probes = await Promise.all(
    wildcardProbes(ctx.settings.domain).map((name) => resolveChain(ctx.dns, name)),
  );
  const answering = probes.filter(
    (res) => res.status === 'exists' || (res.status === 'nxdomain' && res.chain.length > 0),
  );
  const probe = answering[0];
  return probe ? { signatures: new Set(answering.map(answerSignature)), probe } : undefined;
}
