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
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, including AWS's IPv6 metadata address fd00:ec2::254
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address hidden in an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address, if any. */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = Number.parseInt(hex[1] as string, 16);
    const low = Number.parseInt(hex[2] as string, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return undefined;
}

/** Why an address must not be connected to, or undefined when it is a public address. */
export function privateReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4) return privateReason(v4) ? `IPv6 form of private ${v4}` : undefined;
    return blocked.check(address, 'ipv6') ? 'private, loopback or link-local IPv6' : undefined;
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
