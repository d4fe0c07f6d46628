import type { DomainView } from '../../model/contract.ts';

/**
 * The verified domain of the list whose proof covers `name` as its subdomain (the closest one), or
 * undefined: a `shared` proof stands on it rather than on the same name proven in another workspace.
 */
export function provenParentOf(name: string, domains: readonly DomainView[]): string | undefined {
  return domains
    .filter((d) => d.status === 'verified' && d.proof !== 'shared' && name.endsWith(`.${d.domain}`))
    .map((d) => d.domain)
    .sort((a, b) => b.length - a.length)[0];
}
