import { isIP } from 'node:net';
import { type AllowPrivate, privateReason, refusal } from '../../connectors/http/address-guard.ts';
import { resolveHost } from '../../connectors/http/user-host.ts';
import { WEBHOOK_MESSAGES } from '../../model/webhooks.ts';

type WebhookTarget = { ok: true; url: URL; address: string } | { ok: false; message: string };

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
  if (isIP(host)) {
    // An address the caller wrote: saying why it is refused tells them nothing new.
    const reason = refusal(host, allowPrivate);
    if (reason) return { ok: false, message: `The webhook address ${host} is refused (${reason})` };
    if (plain && !privateReason(host)) return { ok: false, message: WEBHOOK_MESSAGES.httpsOnly };
    return { ok: true, url, address: host };
  }
  const addresses = await resolveHost(host, resolvers);
  const first = addresses[0];
  if (!first || addresses.some((address) => refusal(address, allowPrivate))) {
    return { ok: false, message: `The webhook host ${host} does not resolve to a public address` };
  }
  // Plain http:// is only ever for a test receiver on a private address the server allows.
  if (plain && !privateReason(first)) return { ok: false, message: WEBHOOK_MESSAGES.httpsOnly };
  return { ok: true, url, address: first };
}
