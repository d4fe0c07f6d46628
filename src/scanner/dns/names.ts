/**
 * Strict host-name syntax for every name the engine takes from outside (options, CT, DNS records,
 * CNAME hops, redirects): letters, digits, '-' and '_' (service labels such as `_spf`), 1-63 per
 * label, 253 in all, at least two labels, and a last label that is not all digits. c-ares hands
 * back whatever a zone holds, `/` and `:` included, and such a name would otherwise turn into a URL
 * whose host is an IP literal, or a query for a name nobody meant.
 */
const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+(?=[a-z0-9-]*[a-z-])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isHostName(name: string) {
  return HOST_NAME.test(name);
}

export function normaliseName(name: string) {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

export function inZone(name: string, domain: string) {
  return name === domain || name.endsWith(`.${domain}`);
}
