import { CT_ANSWER_BYTES, type CtOptions, certSpotterNames, crtShNames } from '../../connectors/ct/ct.ts';
import { ConnectorError } from '../../connectors/http/error.ts';
import { inZone, isHostName } from '../dns/names.ts';

/**
 * Keeps in-zone host names only: CT answers hold wildcards (`*.x`, normalised to `x`), e-mail
 * addresses, names of other zones and many duplicates.
 */
export function normaliseCtNames(names: Iterable<string>, domain: string): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    for (const piece of raw.split(/\s+/)) {
      const name = piece
        .trim()
        .toLowerCase()
        .replace(/\.$/, '')
        .replace(/^(\*\.)+/, '');
      if (isHostName(name) && inZone(name, domain)) out.add(name);
    }
  }
  return [...out];
}

/**
 * A CT answer too large to read is a domain with more names than CT can hand over: the scan says
 * so, and how to give them instead.
 */
function tooLarge(error: unknown, options: CtOptions): never {
  if (error instanceof ConnectorError && error.failure === 'too-large') {
    const mb = (options.maxBytes ?? CT_ANSWER_BYTES) / 2 ** 20;
    throw new Error(
      `${error.provider}: answer larger than ${mb} MB; give the names with --subdomains instead`,
    );
  }
  throw error;
}

/** crt.sh's in-zone names for the domain. */
export async function fromCrtSh(base: string, domain: string, options: CtOptions) {
  return normaliseCtNames(await crtShNames(base, domain, options).catch((e) => tooLarge(e, options)), domain);
}

/** Cert Spotter's in-zone names for the domain. */
export async function fromCertSpotter(base: string, domain: string, options: CtOptions) {
  return normaliseCtNames(
    await certSpotterNames(base, domain, options).catch((e) => tooLarge(e, options)),
    domain,
  );
}
