import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AllowPrivate, privateReason, refusal } from '../../connectors/http/address-guard.ts';
import { WEBHOOK_MESSAGES } from '../../model/webhooks.ts';

type WebhookTarget = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; message: string };

/** Per DNS try when a webhook host is resolved: a receiver's name must answer promptly. */
const LOOKUP_TIMEOUT_MS = 3_000;

/** The host's IPv4 and IPv6 addresses, asked of the scan resolvers (never /etc/hosts). */
async function resolveHost(
  host: string,
  resolvers: readonly string[],
): Promise<{ address: string; family: 4 | 6 }[]> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (resolvers.length) resolver.setServers([...resolvers]);
  const [v4, v6] = await Promise.all([
    resolver.resolve4(host).catch(() => [] as string[]),
    resolver.resolve6(host).catch(() => [] as string[]),
  ]);
  return [
    ...v4.map((address) => ({ address, family: 4 as const })),
    ...v6.map((address) => ({ address, family: 6 as const })),
  ];
}

/**
 * Where a webhook may be delivered: an https:// URL without credentials whose host resolves only
 * to public addresses (the scanner's rules: no private, loopback, link-local or metadata address).
 * Checked when the URL is saved and again at every delivery, which then connects to the address
 * checked here and no other. Plain http:// is for loopback test receivers, with `allowPrivate`,
 * and never reaches a public address.
 *
 * Names are resolved through the scan resolvers (SCAN_RESOLVERS), as the public internet sees
 * them, and a refused name is not told apart from one that does not resolve: otherwise anyone
 * could ask our server where names of its own network point.
 */
export async function checkWebhookTarget(
  raw: string,
  allowPrivate: AllowPrivate = false,
  resolvers: readonly string[] = [],
): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'The webhook URL is not a valid URL' };
  }
  const plain = url.protocol === 'http:';
  if (url.protocol !== 'https:' && !(plain && allowPrivate))
    return { ok: false, message: WEBHOOK_MESSAGES.httpsOnly };
  if (url.username || url.password)
    return { ok: false, message: 'Webhook URLs must not carry a user name or password' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family) {
    // An address the caller wrote: saying why it is refused tells them nothing new.
    const reason = refusal(host, allowPrivate);
    if (reason) return { ok: false, message: `The webhook address ${host} is refused (${reason})` };
    if (plain && !privateReason(host)) return { ok: false, message: WEBHOOK_MESSAGES.httpsOnly };
    return { ok: true, url, address: host, family: family === 6 ? 6 : 4 };
  }
  const addresses = await resolveHost(host, resolvers);
  const first = addresses[0];
  if (!first || addresses.some(({ address }) => refusal(address, allowPrivate))) {
    return { ok: false, message: `The webhook host ${host} does not resolve to a public address` };
  }
  // Plain http:// is only ever for a test receiver on a private address the server allows.
  if (plain && !privateReason(first.address)) return { ok: false, message: WEBHOOK_MESSAGES.httpsOnly };
  return { ok: true, url, address: first.address, family: first.family };
}
