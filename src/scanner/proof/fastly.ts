import { registrableDomain } from '../discover/rdap.ts';
import { matchesSuffix } from '../fingerprints/match.ts';
import type { Detected } from '../types.ts';
import { type CheckRun, free, type ProofCheck, type Subject, taken, unknown } from './check.ts';

const UNKNOWN_DOMAIN = 'Fastly error: unknown domain';

/**
 * Fastly serves a host on whichever service lists it, and refuses to add a name to a service
 * while its parent domain is on another one (another account's, as a rule). Its edge says
 * "unknown domain" for a host no service lists: asked at the record's own Fastly address with the
 * name and then the parent domain as Host, two such answers prove the name can be added by
 * anyone; a parent that is served proves it cannot.
 */
export const fastlyCheck: ProofCheck = {
  id: 'fastly',
  provider: 'fastly',
  decides: true,
  subject(finding: Detected): Subject | undefined {
    if (finding.service !== 'Fastly' || !matchesSuffix(finding.target, 'fastly.net')) return undefined;
    const parent = registrableDomain(finding.subdomain);
    if (!parent || parent === finding.subdomain) return undefined;
    return { name: finding.subdomain, parent, endpoint: finding.target };
  },
  where: (subject, { ctx }) => `${subject.endpoint} ${ctx.settings.ports.http}`,
  async ask(subject, { ctx }: CheckRun) {
    const address = await ctx.resolveAddress(subject.endpoint as string, true);
    if (!address) return unknown(`${subject.endpoint} has no address`);
    const said = async (host: string) => {
      const result = await ctx.probe(host, address, 'http', undefined, true);
      return result.responses[0];
    };
    const own = await said(subject.name);
    if (!own) return unknown('Fastly did not answer');
    if (!own.body.includes(UNKNOWN_DOMAIN))
      return unknown(`Fastly now serves ${subject.name} (${own.status})`);
    const parent = await said(subject.parent as string);
    if (!parent) return unknown('Fastly did not answer for the parent domain');
    if (parent.body.includes(UNKNOWN_DOMAIN))
      return free(subject.name, `"${UNKNOWN_DOMAIN}" for ${subject.name} and for ${subject.parent}`);
    if (parent.status >= 500) return unknown(`Fastly answered ${parent.status} for ${subject.parent}`);
    return taken(subject.name, `${subject.parent} is on a Fastly service (${parent.status})`);
  },
};
