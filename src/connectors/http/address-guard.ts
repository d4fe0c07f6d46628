/*
 * The one rule for addresses the product connects to on anyone's say-so: probes of scanned names,
 * direct questions to delegated nameservers, webhook deliveries. Loopback, private, link-local,
 * CGNAT, metadata and their IPv6 forms are refused unless the caller allows them.
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT; also Alibaba's metadata service at 100.100.100.200
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: the cloud metadata services live at 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into whatever network it is set up for
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, including AWS's IPv6 metadata address fd00:ec2::254
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (with or without a dotted IPv4 tail or a zone id). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group || '0', 16);
    return [value >> 8, value & 255];
  });
}

const quad = (bytes: number[]) => bytes.join('.');
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const zeros = (count: number) => Array<number>(count).fill(0);

/**
 * The IPv4 addresses an IPv6 address carries to, by the forms that translate or tunnel to IPv4:
 * IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), SIIT (::ffff:0:0:0/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32: its server, and its client obfuscated).
 */
function embeddedIPv4(address: string): string[] {
  const bytes = ipv6Bytes(address);
  const last = bytes.slice(12);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return [quad(last)];
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return [quad(last)];
  if (startsWith(bytes, zeros(12)) && !startsWith(last, [0, 0])) return [quad(last)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [quad(last)];
  if (startsWith(bytes, [0x20, 0x02])) return [quad(bytes.slice(2, 6))];
  if (startsWith(bytes, [0x20, 0x01, 0, 0]))
    return [quad(bytes.slice(4, 8)), quad(last.map((b) => b ^ 0xff))];
  return [];
}

/** Why an address must not be connected to, or undefined when it is a public address. */
export function privateReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    if (blocked.check(address, 'ipv6')) return 'private, loopback or link-local IPv6';
    const hidden = embeddedIPv4(address).find((v4) => privateReason(v4));
    return hidden ? `IPv6 form of private ${hidden}` : undefined;
  }
  return blocked.check(address, 'ipv4')
    ? 'private, loopback, link-local, CGNAT or metadata address'
    : undefined;
}

/**
 * `allowPrivate`: true lets every address through (the CLI's --allow-private); a list lets only
 * those exact addresses through (tests allow the loopback fixture and nothing else).
 */
export type AllowPrivate = boolean | readonly string[];

export function refusal(address: string, allow: AllowPrivate): string | undefined {
  const reason = privateReason(address);
  if (!reason || allow === true) return undefined;
  if (allow !== false && allow.includes(address)) return undefined;
  return reason;
}
