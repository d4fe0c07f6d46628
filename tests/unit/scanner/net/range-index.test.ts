// The range index against Node's own BlockList as the oracle: random blocks of every length, nested
// and overlapping, and random addresses in and around them.
import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ipv4Number, ipv6Number, RangeIndex } from '../../../../src/scanner/net/range-index.ts';

/** A small deterministic generator: the same blocks on every run, so a failure repeats. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const v4Text = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
const v6Text = (n: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - i * 16)) & 0xffffn).toString(16)).join(':');

describe('the cloud range index', () => {
  it('finds what BlockList finds, for IPv4 blocks of every length', () => {
    const next = random(7);
    const ranges = Array.from({ length: 400 }, (_, i) => {
      const bits = Math.floor(next() * 33);
      return { cidr: `${v4Text(Math.floor(next() * 2 ** 32))}/${bits}`, id: i };
    }).filter((r) => !r.cidr.endsWith('/0'));
    const index = new RangeIndex(ranges);
    const lists = ranges.map((r) => {
      const list = new BlockList();
      const [net, bits] = r.cidr.split('/');
      list.addSubnet(net as string, Number(bits), 'ipv4');
      return list;
    });
    for (let i = 0; i < 3000; i++) {
      // Half the addresses next to a block's start, so most blocks are hit, and their edges.
      const near = ranges[i % ranges.length]?.cidr.split('/')[0] as string;
      const address =
        i % 2
          ? v4Text(Math.floor(next() * 2 ** 32))
          : v4Text(((ipv4Number(near) as number) + (i % 3) - 1 + 2 ** 32) % 2 ** 32);
      const first = lists.findIndex((l) => l.check(address, 'ipv4'));
      expect(index.find(address)?.id, address).toBe(first === -1 ? undefined : ranges[first]?.id);
    }
  });

  it('finds what BlockList finds, for IPv6 blocks, in every written form', () => {
    const next = random(11);
    const bigRandom = () =>
      Array.from({ length: 8 }).reduce<bigint>((n) => (n << 16n) | BigInt(Math.floor(next() * 65_536)), 0n);
    const ranges = Array.from({ length: 200 }, (_, i) => ({
      cidr: `${v6Text(bigRandom())}/${1 + Math.floor(next() * 128)}`,
      id: i,
    }));
    const index = new RangeIndex(ranges);
    const lists = ranges.map((r) => {
      const list = new BlockList();
      const [net, bits] = r.cidr.split('/');
      list.addSubnet(net as string, Number(bits), 'ipv6');
      return list;
    });
    for (let i = 0; i < 1500; i++) {
      const near = ipv6Number(ranges[i % ranges.length]?.cidr.split('/')[0] as string) as bigint;
      const address = v6Text(i % 2 ? bigRandom() : near + BigInt(i % 5));
      const first = lists.findIndex((l) => l.check(address, 'ipv6'));
      expect(index.find(address)?.id, address).toBe(first === -1 ? undefined : ranges[first]?.id);
    }
    const short = new RangeIndex([{ cidr: '2600:1f00::/24', id: 'aws' }]);
    expect(short.find('2600:1f18::1')?.id).toBe('aws');
    expect(short.find('2600:1f18:0:0:0:0:0:1')?.id).toBe('aws');
    expect(short.find('2600:2000::1')).toBeUndefined();
  });

  it('reads IPv6 in its short, long and IPv4-tailed forms alike', () => {
    const forms = [
      '::',
      '::1',
      '1::',
      'fd00::11',
      '2001:db8::8a2e:370:7334',
      '::ffff:1.2.3.4',
      '64:ff9b::192.0.2.33',
    ];
    for (const form of forms) {
      expect(isIP(form)).toBe(6);
      const n = ipv6Number(form) as bigint;
      expect(ipv6Number(v6Text(n)), form).toBe(n);
    }
    expect(ipv6Number('::ffff:1.2.3.4')).toBe((0xffffn << 32n) | 0x01020304n);
    expect(ipv6Number('1.2.3.4')).toBeUndefined();
    expect(ipv6Number('::ffff:1.2.3.400')).toBeUndefined();
  });

  it('gives the first listed block where several hold the address, and nothing for other text', () => {
    const index = new RangeIndex([
      { cidr: '3.0.0.0/9', cloud: 'first' },
      { cidr: '3.4.12.0/24', cloud: 'second' },
      { cidr: '3.200.0.0/16', cloud: 'third' },
    ]);
    expect(index.find('3.4.12.9')?.cloud).toBe('first');
    expect(index.find('3.200.1.1')?.cloud).toBe('third');
    expect(index.find('4.0.0.1')).toBeUndefined();
    expect(index.find('not-an-address')).toBeUndefined();
    expect(index.find('')).toBeUndefined();
    expect(index.size).toBe(3);
  });
});
