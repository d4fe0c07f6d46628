import type { Candidate, ScanContext } from '../context.ts';
import { axfrTexts } from '../report/texts.ts';
import { readAxfr, ZoneTransferError } from '../zone/axfr.ts';

/** The apex's nameservers asked for a transfer: a zone has a handful, a hostile one may list hundreds. */
const MAX_SERVERS = 6;

/**
 * Asks one server for the zone (AXFR over TCP) and stops at the first record: a server that
 * starts the transfer hands the whole zone to anyone. Undefined when it refuses or stays silent.
 */
async function transfers(ctx: ScanContext, domain: string, server: string, address: string) {
  try {
    for await (const record of readAxfr({
      zone: domain,
      server: { host: address, port: ctx.settings.nameserverPort },
      timeoutMs: ctx.settings.timeoutMs,
      allowPrivate: ctx.settings.allowPrivate,
      signal: ctx.signal,
    })) {
      return `${server} (${address}) began a zone transfer of ${domain} to us: ${record.name} ${record.type} ${record.data.slice(0, 80)}`;
    }
    return undefined;
  } catch (error) {
    ctx.signal?.throwIfAborted();
    if (error instanceof ZoneTransferError) return undefined;
    throw error;
  }
}

/**
 * Open zone transfer: a nameserver of the scanned zone that answers AXFR to anyone gives away
 * every name of the zone, the forgotten and dangling ones included, to whoever asks.
 */
export async function detectOpenTransfer(ctx: ScanContext, domain: string): Promise<Candidate[]> {
  const found = await Promise.all(
    ctx.apexNameservers.slice(0, MAX_SERVERS).map(async (server): Promise<Candidate | undefined> => {
      const a = await ctx.dns.query(server, 'A');
      const address = a.status === 'ok' ? a.records[0] : undefined;
      if (!address) return undefined;
      const first = await transfers(ctx, domain, server, address);
      if (!first) return undefined;
      return {
        kind: 'open-zone-transfer',
        finding: {
          subdomain: domain,
          recordType: 'NS',
          target: server,
          service: 'zone transfer (AXFR)',
          status: 'likely',
          risk: 'medium',
          evidence: [`${domain} NS ${server}`, first],
          ...axfrTexts(domain, server),
        },
        recheck: () => transfers(ctx, domain, server, address),
      };
    }),
  );
  const candidates = found.filter((c) => c !== undefined);
  return candidates;
}
