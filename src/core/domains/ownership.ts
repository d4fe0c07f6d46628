import { Resolver } from 'node:dns/promises';
import { getDomain } from 'tldts';
import { TXT_PREFIX } from '../../model/constants.ts';

/**
 * The TXT record's name as a DNS provider asks for it, relative to the registered domain's zone: @ for
 * that domain itself, `app` for app.example.com. The record is read at the exact host either way.
 */
export function txtRecordName(domain: string): string {
  const registered = getDomain(domain, { allowPrivateDomains: true });
  return !registered || registered === domain ? '@' : domain.slice(0, -(registered.length + 1));
}

function whereToAdd(domain: string): string {
  const name = txtRecordName(domain);
  return name === '@'
    ? 'at the root of the domain (name @ or empty)'
    : `at ${domain} itself (name ${name} in the DNS zone of ${domain.slice(name.length + 1)})`;
}

const VERIFY_MESSAGES = {
  unavailable: 'DNS verification service is temporarily unavailable. Please try again in a few minutes.',
  missing: (domain: string, value: string, found: string[]) =>
    found.length === 0
      ? `No TXT record found at ${domain}. Add a TXT record with the value ${value} ${whereToAdd(domain)}.`
      : `The TXT records at ${domain} do not include ${value} (found: ${found.slice(0, 5).join(', ')}). Check the value for typos.`,
  noDomain: (domain: string, value: string) =>
    txtRecordName(domain) === '@'
      ? `${domain} does not exist in DNS (NXDOMAIN). Check the spelling of the domain.`
      : `${domain} does not exist in DNS (NXDOMAIN): add a TXT record with the value ${value} ${whereToAdd(domain)}, or check the spelling.`,
} as const;

export function txtValue(token: string): string {
  return `${TXT_PREFIX}${token}`;
}

type OwnershipResult =
  | { verified: true }
  /** `definite`: the record is not there (DNS answered); otherwise DNS could not be asked. */
  | { verified: false; definite: boolean; error: string };

/**
 * Looks up TXT at the apex through the engine's resolvers and compares exactly: one of the records,
 * its strings joined as DNS carries them split, must equal `danglewatch-verify=<token>`.
 */
export async function checkOwnership(
  domain: string,
  token: string,
  options: { resolvers?: string[]; timeoutMs?: number } = {},
): Promise<OwnershipResult> {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: 2 });
  if (options.resolvers?.length) resolver.setServers(options.resolvers);
  const expected = txtValue(token);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(domain);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENODATA')
      return { verified: false, definite: true, error: VERIFY_MESSAGES.missing(domain, expected, []) };
    if (code === 'ENOTFOUND')
      return { verified: false, definite: true, error: VERIFY_MESSAGES.noDomain(domain, expected) };
    return { verified: false, definite: false, error: VERIFY_MESSAGES.unavailable };
  }
  const found = records.map((chunks) => chunks.join(''));
  if (found.includes(expected)) return { verified: true };
  return { verified: false, definite: true, error: VERIFY_MESSAGES.missing(domain, expected, found) };
}
