import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AllowPrivate, refusal } from '../../scanner/net/address-guard.ts';

export type WebhookTarget =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  | { ok: false; message: string };

/**
 * Where a webhook may be delivered: an https:// URL without credentials whose host resolves only
 * to public addresses (the scanner's rules: no private, loopback, link-local or metadata address).
 * Checked when the URL is saved and again at every delivery, which then connects to the address
 * checked here and no other. Plain http:// is for loopback test receivers, with `allowPrivate`.
 */
export async function checkWebhookTarget(
  raw: string,
  allowPrivate: AllowPrivate = false,
): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'The webhook URL is not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    return { ok: false, message: 'Webhook URLs must use https://' };
  }
  if (url.username || url.password)
    return { ok: false, message: 'Webhook URLs must not carry a user name or password' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, message: `The webhook host ${host} does not resolve` };
  }
  for (const { address } of addresses) {
    const reason = refusal(address, allowPrivate);
    if (reason)
      return {
        ok: false,
        message: `The webhook host ${host} resolves to ${address}, which is refused (${reason})`,
      };
  }
  const first = addresses[0];
  if (!first) return { ok: false, message: `The webhook host ${host} does not resolve` };
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
