import { inZone, isHostName, normaliseName } from '../dns/names.ts';
import type { NameSource } from '../zone/record.ts';

const BITS: Record<NameSource, number> = { given: 1, zone: 2, ct: 4, wordlist: 8, dns: 16 };
const ORDER = Object.keys(BITS) as NameSource[];

/** Quoted and cut short: names from records and CT are the zone owner's (or anyone's) text. */
export const quote = (text: string) => JSON.stringify(text.slice(0, 80));

/** Set beside the source bits once a name is handed to the resolve phase. */
const DISPATCHED = 1 << 8;

/**
 * Every name of one scan with the sources that revealed it, within the scan's bounds: `maxNames`
 * for all of them, `maxInjected` for the names that DNS answers (apex NS and MX, in-zone CNAME
 * hops) add. Invalid and out-of-bound names are counted, and reported once per place they came from.
 */
export class NameSet {
  readonly domain: string;
  /** Each name's sources as bits of `BITS`, and `DISPATCHED`: one number per name keeps 100,000 names small. */
  private readonly names = new Map<string, number>();
  private readonly invalid = new Map<string, { count: number; example: string }>();
  /** Wildcard owners (`*.example.com`): never scanned as names, but findings are reported at them. */
  private readonly wildcards = new Map<string, number>();
  /** Names admitted since `takeAdmitted()` last took them, in the order they came. */
  private admitted: string[] = [];
  private injected = 0;
  readonly over = { names: 0, injected: 0 };
  readonly maxNames: number;
  readonly maxInjected: number;

  constructor(domain: string, maxNames: number, maxInjected: number) {
    this.domain = domain;
    this.maxNames = maxNames;
    this.maxInjected = maxInjected;
  }

  get size() {
    return this.names.size;
  }

  /**
   * Adds a valid, in-zone name within the bounds; true when it is new to the scan. Names that DNS
   * answers point to count against `maxInjected` too, unless they are the zone's own list of names
   * (`injected: false`, an NSEC walk).
   */
  admit(raw: string, source: NameSource, what: string, injected = source === 'dns'): boolean {
    const name = normaliseName(raw);
    if (!isHostName(name)) {
      this.reject(what, raw);
      return false;
    }
    if (!inZone(name, this.domain)) return false;
    const known = this.names.get(name);
    if (known !== undefined) {
      this.names.set(name, known | BITS[source]);
      return false;
    }
    if (injected && this.injected >= this.maxInjected) {
      this.over.injected++;
      return false;
    }
    if (this.names.size >= this.maxNames) {
      this.over.names++;
      return false;
    }
    if (injected) this.injected++;
    this.names.set(name, BITS[source]);
    this.admitted.push(name);
    return true;
  }

  /** Counts something that is not a name at all (a malformed zone record), reported with the rest. */
  reject(what: string, example: string) {
    const seen = this.invalid.get(what) ?? { count: 0, example };
    seen.count++;
    this.invalid.set(what, seen);
  }

  has(name: string) {
    return this.names.has(name);
  }

  /** Marks a name as handed to the resolve phase; false when it already was (or is unknown). */
  dispatch(name: string): boolean {
    const bits = this.names.get(name);
    if (bits === undefined || bits & DISPATCHED) return false;
    this.names.set(name, bits | DISPATCHED);
    // Most names are dispatched as soon as they are admitted (a zone's, a CNAME's hops): they need not wait in `admitted`.
    if (this.admitted.at(-1) === name) this.admitted.pop();
    return true;
  }

  /**
   * The names admitted since the last call, in the order they came: only those are looked at, not
   * every name of the scan again. Some may have been dispatched since; `dispatch` says which.
   */
  takeAdmitted(): readonly string[] {
    const since = this.admitted;
    this.admitted = [];
    return since;
  }

  /** Records where a wildcard owner came from, for the finding reported at it. */
  noteWildcard(owner: string, source: NameSource) {
    this.wildcards.set(owner, (this.wildcards.get(owner) ?? 0) | BITS[source]);
  }

  sourcesOf(name: string): NameSource[] {
    const bits = this.names.get(name) ?? this.wildcards.get(name) ?? 0;
    return ORDER.filter((source) => bits & BITS[source]);
  }

  /** Only the wordlist guessed it: such a name is dropped unless it exists on its own. */
  onlyGuessed(name: string) {
    return ((this.names.get(name) ?? 0) & ~DISPATCHED) === BITS.wordlist;
  }

  /** The errors for what was left out: invalid names per place, names past the bounds. */
  problems(): string[] {
    const out: string[] = [];
    for (const [what, { count, example }] of this.invalid) {
      const which =
        count > 1
          ? `${count} names, such as ${quote(example)}, are not host names`
          : `${quote(example)} is not a host name`;
      out.push(`${what}: ${which}; skipped`);
    }
    if (this.over.names > 0) {
      out.push(`${this.over.names} names past the limit of ${this.maxNames} names per scan were not checked`);
    }
    if (this.over.injected > 0) {
      out.push(
        `${this.over.injected} names that the zone's NS, MX and CNAME records point to were not checked (limit ${this.maxInjected})`,
      );
    }
    return out;
  }
}
