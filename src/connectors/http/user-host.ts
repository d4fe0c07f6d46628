import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AllowPrivate, privateReason, refusal } from './address-guard.ts';
import { ConnectorError } from './error.ts';

/**
 * A host someone typed (a Jira site, a webhook receiver): resolved through the scan resolvers
 * (SCAN_RESOLVERS), as the public internet sees it, never the system's resolver or /etc/hosts; its
 * private, loopback, link-local and metadata addresses refused unless `allowPrivate` lets them
 * through (tests allow the loopback fixture and nothing else).
 */
export interface UserHost {
  /** host or host:port of each resolver; empty: the system's configured nameservers. */
  resolvers: readonly string[];
  allowPrivate: AllowPrivate;
}

/** Per DNS try: a name someone typed must answer promptly. */
const LOOKUP_TIMEOUT_MS = 3_000;

/** The host's IPv4 and IPv6 addresses, asked of the given resolvers (never /etc/hosts). */
export async function resolveHost(host: string, resolvers: readonly string[]): Promise<string[]> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (resolvers.length) resolver.setServers([...resolvers]);
  const [v4, v6] = await Promise.all([
    resolver.resolve4(host).catch(() => [] as string[]),
    resolver.resolve6(host).catch(() => [] as string[]),
  ]);
  return [...v4, ...v6];
}

/**
 * The one address a call to a user-named URL connects to: https:// without a user name or
 * password, its host resolving to allowed addresses only. Plain http:// only to a private address
 * the caller allows (a loopback test server), never to a public one. A refused name is not told
 * apart from one that does not resolve: otherwise anyone could ask our server where names of its
 * own network point.
 */
export async function checkedAddress(provider: string, url: URL, host: UserHost): Promise<string> {
  const refused = (message: string) => new ConnectorError(provider, 'address', { message });
  const plain = url.protocol === 'http:';
  if (url.protocol !== 'https:' && !(plain && host.allowPrivate))
    throw refused(`The ${provider} URL must use https://`);
  if (url.username || url.password)
    throw refused(`The ${provider} URL must not carry a user name or password`);
  const name = url.hostname.replace(/^\[|\]$/g, '');
  let address: string | undefined;
  if (isIP(name)) {
    // An address the caller wrote: saying why it is refused tells them nothing new.
    const reason = refusal(name, host.allowPrivate);
    if (reason) throw refused(`The ${provider} address ${name} is refused (${reason})`);
    address = name;
  } else {
    const addresses = await resolveHost(name, host.resolvers);
    if (!addresses.length || addresses.some((a) => refusal(a, host.allowPrivate)))
      throw refused(`The ${provider} host ${name} does not resolve to a public address`);
    address = addresses[0] as string;
  }
  if (plain && !privateReason(address)) throw refused(`The ${provider} URL must use https://`);
  return address;
}
