import type { Candidate, ScanContext } from '../context.ts';
import { axfrTexts } from '../report/texts.ts';
import { readAxfr, ZoneTransferError } from '../zone/axfr.ts';

/** The apex's nameservers asked for a transfer: a zone has a handful, a hostile one may list hundreds. */
const MAX_SERVERS = 6;
/** A whole transfer of one server, however slowly it trickles: past this it is that check's error. */
const TRANSFER_MS = 60_000;

interface Outcome {
  /** The evidence of a complete transfer. */
  open?: string;
  /** A fault (reset, stall, garbage, a transfer cut short): this check's error, never the scan's end. */
  fault?: string;
}

/**
 * Asks one server for the zone (AXFR over TCP) and reads it to the end: the transfer is open only
 * when it completes, from the SOA to the SOA again, with records of the zone between. A refusal is
 * the ordinary answer; a reset, a stall, garbage or a transfer cut short is a fault, reported as the
 * check's error.
 */
async function transfers(
  ctx: ScanContext,
  domain: string,
  server: string,
  address: string,
): Promise<Outcome> {
  const limit = AbortSignal.timeout(TRANSFER_MS);
  let records = 0;
  let types = new Set<string>();
  try {
    for await (const record of readAxfr({
      zone: domain,
      server: { host: address, port: ctx.settings.nameserverPort },
      timeoutMs: ctx.settings.timeoutMs,
      allowPrivate: ctx.settings.allowPrivate,
      signal: ctx.signal ? AbortSignal.any([ctx.signal, limit]) : limit,
    })) {
      records++;
      if (types.size < 8) types.add(record.type);
    }
  } catch (error) {
    ctx.signal?.throwIfAborted();
    if (error instanceof ZoneTransferError && error.refused) return {};
    const message = limit.aborted
      ? `did not finish within ${TRANSFER_MS / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    return { fault: `zone transfer of ${domain} from ${server} (${address}) failed: ${message}` };
  }
  // The opening SOA alone is no zone: records of the zone must come between the two SOAs.
  if (records < 2) return {};
  types = new Set([...types].filter((t) => t !== 'SOA'));
  return {
    open: `${server} (${address}) handed over the whole zone of ${domain}: ${records} records (${[...types].join(', ')}), SOA to SOA`,
  };
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
      if (first.fault) ctx.error('detect', first.fault, domain);
      if (!first.open) return undefined;
      return {
        kind: 'open-zone-transfer',
        finding: {
          subdomain: domain,
          recordType: 'NS',
          target: server,
          service: 'zone transfer (AXFR)',
          status: 'likely',
          risk: 'medium',
          evidence: [`${domain} NS ${server}`, first.open],
          ...axfrTexts(domain, server),
        },
        recheck: async () => (await transfers(ctx, domain, server, address)).open,
      };
    }),
  );
  return found.filter((c) => c !== undefined);
}
