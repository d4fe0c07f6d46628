import type { Candidate, ScanContext } from '../context.ts';
import { detectMail, detectTxtHosts } from '../detect/mail.ts';
import { detectName } from '../detect/records.ts';
import { SecondOrder } from '../detect/second-order.ts';
import { detectSrv, isServiceName } from '../detect/srv.ts';
import { txtHosts } from '../discover/txt-names.ts';
import { answerSignature } from '../discover/wordlist.ts';
import { type Given, type Resolution, resolveChain } from '../dns/chain.ts';
import { type Lookup, parseMx, srvTarget } from '../dns/resolver.ts';
import { WorkQueue } from '../util/queue.ts';
import type { ZoneRecord } from '../zone/record.ts';
import type { NameSet } from './names.ts';
import type { Progress } from './progress.ts';
import { stamped } from './validate.ts';
import { byOwner, type Known, type OwnerRecords } from './zone-input.ts';

/** Lookups of the name being checked, asked once (one object for every name, not one each). */
const ONCE: Lookup = { once: true };
const NO_SERVERS: readonly string[] = [];

/** A name alone, or a name with the zone's records for it (a string, not a wrapper, for most names). */
type Item = string | OwnerRecords;

interface ResolveSettings {
  /** false: no name is added from DNS answers (CNAME hops), only what was given or the zone holds. */
  discovery: boolean;
  /** Answer signatures of the zone's wildcard, if it has one: guesses answering like it are dropped. */
  wildcard: Set<string> | undefined;
  width: number;
  progress: Progress;
}

/** What a zone says of a name, as the start of its resolution; undefined where DNS must be asked. */
export function givenBy(known: Known | undefined, apex: boolean): Given | undefined {
  if (!known) return undefined;
  if (known.cname) return { cname: known.cname, alias: known.alias };
  // A delegation's data lives in the child zone: ask DNS, and check the delegation if that fails.
  if (!apex && known.ns.length > 0) return undefined;
  return { a: known.a, aaaa: known.aaaa };
}

/** In-zone names a zone's records point at, which the scan checks as names of their own. */
function targetsOf(known: Known, domain: string): string[] {
  return [
    ...(known.cname ? [known.cname] : []),
    ...known.ns,
    ...known.mx.map((record) => parseMx(record).exchange),
    ...known.srv,
    ...known.txt.flatMap((record) => txtHosts(record, domain)),
  ];
}

/**
 * The resolve phase: names arrive while it runs (the zone's stream, CT, the wordlist, CNAME hops),
 * each is resolved once (from the zone's own data where it has some) and run through the
 * detection rules. Names found while the zone is still being read wait for the end of the stream,
 * so a name the zone holds is checked with its records, not asked of DNS first.
 */
export class ResolvePhase {
  readonly checked = new Set<string>();
  readonly candidates: Candidate[] = [];
  /** Live pages of the zone, read for scripts and frames from hosts anyone can claim. */
  readonly secondOrder: SecondOrder;
  /** Owner names of the zone's `*.` records, for the wildcard check. */
  readonly zoneWildcards: OwnerRecords[] = [];
  private readonly queue: WorkQueue<Item>;
  /** The zone answers for names nobody created. */
  readonly wildcard: boolean;
  private holding = false;
  private done = 0;

  private readonly ctx: ScanContext;
  private readonly names: NameSet;
  private readonly settings: ResolveSettings;

  constructor(ctx: ScanContext, names: NameSet, settings: ResolveSettings) {
    this.ctx = ctx;
    this.secondOrder = new SecondOrder(ctx);
    this.names = names;
    this.settings = settings;
    this.wildcard = settings.wildcard !== undefined;
    this.queue = new WorkQueue(settings.width, settings.width * 4, this);
  }

  /** Reads the zone's records as a stream, an owner at a time, as fast as they are checked. */
  async readZone(records: AsyncIterable<ZoneRecord>) {
    this.holding = true;
    const apex = this.ctx.settings.domain;
    for await (const group of byOwner(records, (record) =>
      this.names.reject('zone record', JSON.stringify(record)),
    )) {
      if (group.name.startsWith('*.')) {
        this.zoneWildcards.push(group);
        continue;
      }
      this.names.admit(group.name, 'zone', 'zone record');
      if (!this.names.has(group.name)) continue;
      this.names.dispatch(group.name);
      if (group.name === apex) {
        // The apex's own NS, MX and TXT are checked from the resolvers' answers, with the apex.
        group.known = { ...group.known, ns: [], mx: [], txt: [] };
      }
      for (const target of targetsOf(group.known, apex))
        this.names.admit(target, 'zone', 'zone record target');
      const full = this.queue.push(group);
      if (full) await full;
    }
    this.holding = false;
  }

  /** Hands every admitted name that is not being checked yet to the workers. */
  release() {
    for (const name of this.names.takeAdmitted()) if (this.names.dispatch(name)) this.queue.add(name);
  }

  idle() {
    return this.queue.idle();
  }

  /** A name found on the way (a CNAME hop, a record's target): checked now, or once the zone is read. */
  private found(name: string, source: 'zone' | 'dns', what: string) {
    if (!this.names.admit(name, source, what)) return;
    if (!this.holding && this.names.dispatch(name)) this.queue.add(name);
  }

  /**
   * A name the zone itself lists (its NSEC chain: `maxNames` only) or points at from a page
   * (`injected`: within `maxInjectedNames` too), checked as soon as it is read.
   */
  listed(name: string, what: string, injected: boolean) {
    if (this.names.admit(name, 'dns', what, injected) && this.names.dispatch(name)) this.queue.add(name);
  }

  /**
   * Resolves a name, then judges it: the work queue's worker. Not an async function: what waits for
   * the resolver's answer is a small closure, not the frame of everything `judge` does after it.
   */
  work(item: Item): Promise<void> {
    const name = typeof item === 'string' ? item : item.name;
    const known = typeof item === 'string' ? undefined : item.known;
    const apex = name === this.ctx.settings.domain;
    const given = givenBy(known, apex);
    // The name set hands each name over once, so what is asked about the name itself is not kept
    // for the rest of the scan; a CNAME target the zone gives, which other names may share, is.
    return resolveChain(this.ctx.dns, name, given?.cname ? {} : ONCE, given).then((res) =>
      this.judge(name, known, apex, res),
    );
  }

  /** The detection rules for a resolved name, and the mail or service records it may hold. */
  private async judge(name: string, known: Known | undefined, apex: boolean, res: Resolution) {
    const { ctx, names, settings } = this;
    this.done++;
    settings.progress.note({ phase: 'resolve', done: this.done, total: names.size });
    // A guessed name is worth reporting only when it exists itself: a CNAME whose target is
    // gone (NXDOMAIN at the end of the chain) is the very record this scan looks for.
    const absent = res.status === 'nxdomain' && res.chain.length === 0;
    const likeWildcard = settings.wildcard?.has(answerSignature(res)) ?? false;
    if (names.onlyGuessed(name) && (absent || likeWildcard)) return;
    this.checked.add(name);
    if (settings.discovery || known) {
      res.chain.forEach((hop, i) => {
        const fromZone = i === 0 && known?.cname === hop;
        this.found(hop, fromZone ? 'zone' : 'dns', `CNAME ${name}`);
      });
    }
    // A name that answers just as the zone's wildcard does shares its finding, reported once at the wildcard.
    if (likeWildcard && !known && !apex) return;
    for (const hop of res.chain) ctx.notePointer(name, 'CNAME', hop);
    if (known) {
      if (!apex) for (const server of known.ns) ctx.notePointer(name, 'NS', server);
      for (const record of known.mx) ctx.notePointer(name, 'MX', parseMx(record).exchange);
    }
    const detected = detectName(ctx, res, apex || !known ? NO_SERVERS : known.ns);
    // Most names are settled at once: no await (and no turn of the event loop) for them.
    const found = Array.isArray(detected) ? detected : await detected;
    this.candidates.push(...stamped(found));
    if (found.length === 0 && res.status === 'exists' && !name.includes('_')) this.secondOrder.offer(res);
    // Mail records live on subdomains too (bounce and sending domains); a CNAME'd name has none.
    if (apex || res.status !== 'exists' || res.chain.length > 0) return;
    if (isServiceName(name)) {
      // A service name holds SRV records, not mail: its targets, from the zone or asked once.
      const srv = known ? undefined : await ctx.dns.query(name, 'SRV', ONCE);
      const targets = known ? known.srv : srv?.status === 'ok' ? srv.records.map(srvTarget) : [];
      this.candidates.push(
        ...stamped(
          await detectSrv(
            ctx,
            name,
            targets.filter((t) => t !== undefined),
          ),
        ),
      );
      return;
    }
    if (known) {
      if (known.mx.length + known.txt.length > 0)
        this.candidates.push(...stamped(await detectMail(ctx, name, known.mx, known.txt)));
      if (known.txt.length > 0) this.candidates.push(...stamped(await detectTxtHosts(ctx, name, known.txt)));
      return;
    }
    // A subdomain that sends mail has an MX for its bounces (SES MAIL FROM, Mailgun, Resend): its
    // SPF is asked only then, which keeps a name that is only a host to two questions.
    const mx = await ctx.dns.query(name, 'MX', ONCE);
    if (mx.status !== 'ok') return;
    for (const record of mx.records) ctx.notePointer(name, 'MX', parseMx(record).exchange);
    const txt = await ctx.dns.query(name, 'TXT', ONCE);
    if (settings.discovery && txt.status === 'ok') {
      for (const record of txt.records)
        for (const host of txtHosts(record, ctx.settings.domain)) this.found(host, 'dns', `TXT ${name}`);
    }
    const texts = txt.status === 'ok' ? txt.records : [];
    this.candidates.push(...stamped(await detectMail(ctx, name, mx.records, texts)));
    this.candidates.push(...stamped(await detectTxtHosts(ctx, name, texts)));
  }
}
