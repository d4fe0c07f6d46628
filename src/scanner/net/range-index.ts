import { isIP } from 'node:net';

/**
 * A dotted-quad IPv4 address (as `net.isIPv4` takes it: no leading zeros) as a number; undefined
 * for anything else, IPv6 included. Read without a match object or a split, for every name of a zone.
 */
export function ipv4Number(address: string): number | undefined {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i <= address.length; i++) {
    const code = i < address.length ? address.charCodeAt(i) : 0x2e;
    if (code === 0x2e) {
      if (digits === 0 || part > 255 || ++dots > 4) return undefined;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (code >= 0x30 && code <= 0x39) {
      // A leading zero is allowed only as the whole part ("0", not "01").
      if (digits === 1 && part === 0) return undefined;
      part = part * 10 + code - 0x30;
      digits++;
    } else return undefined;
  }
  return dots === 4 ? value : undefined;
}

/** An IPv6 address (any form `net.isIPv6` takes, an embedded IPv4 tail included) as a 128-bit number. */
export function ipv6Number(address: string): bigint | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.split('%')[0] as string;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = ipv4Number(tail[1] as string);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, tail.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups =
    rest === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  return value;
}

/**
 * Address blocks looked up by address, one map per prefix length: at most 33 (or 129) lookups
 * whatever the number of blocks, so the clouds' whole published lists cost a scan no more than a
 * handful. Where blocks overlap, the first listed wins.
 */
export class RangeIndex<T extends { cidr: string }> {
  private readonly v4 = new Map<number, Map<number, { order: number; range: T }>>();
  private readonly v6 = new Map<number, Map<bigint, { order: number; range: T }>>();
  /** The lengths present, longest first: a miss asks only those. */
  private readonly v4Lengths: number[];
  private readonly v6Lengths: number[];

  constructor(ranges: readonly T[]) {
    ranges.forEach((range, order) => {
      const [net = '', bitsText] = range.cidr.split('/');
      const bits = Number(bitsText);
      const v4 = ipv4Number(net);
      if (v4 !== undefined && bits >= 0 && bits <= 32) {
        const key = bits === 0 ? 0 : Math.floor(v4 / 2 ** (32 - bits));
        const byKey = this.v4.get(bits) ?? new Map();
        if (!byKey.has(key)) byKey.set(key, { order, range });
        this.v4.set(bits, byKey);
        return;
      }
      const v6 = ipv6Number(net);
      if (v6 !== undefined && bits >= 0 && bits <= 128) {
        const key = v6 >> BigInt(128 - bits);
        const byKey = this.v6.get(bits) ?? new Map();
        if (!byKey.has(key)) byKey.set(key, { order, range });
        this.v6.set(bits, byKey);
      }
    });
    this.v4Lengths = [...this.v4.keys()].sort((a, b) => b - a);
    this.v6Lengths = [...this.v6.keys()].sort((a, b) => b - a);
  }

  get size(): number {
    let n = 0;
    for (const byKey of [...this.v4.values(), ...this.v6.values()]) n += byKey.size;
    return n;
  }

  /** The block an address is in, the first listed when several hold it. */
  find(address: string): T | undefined {
    let best: { order: number; range: T } | undefined;
    const v4 = ipv4Number(address);
    if (v4 !== undefined) {
      for (const bits of this.v4Lengths) {
        const hit = this.v4.get(bits)?.get(bits === 0 ? 0 : Math.floor(v4 / 2 ** (32 - bits)));
        if (hit && (!best || hit.order < best.order)) best = hit;
      }
      return best?.range;
    }
    if (this.v6Lengths.length === 0) return undefined;
    const v6 = ipv6Number(address);
    if (v6 === undefined) return undefined;
    for (const bits of this.v6Lengths) {
      const hit = this.v6.get(bits)?.get(v6 >> BigInt(128 - bits));
      if (hit && (!best || hit.order < best.order)) best = hit;
    }
    return best?.range;
  }
}
