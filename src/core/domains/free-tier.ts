import { companyDomain } from '../../model/company-domain.ts';
import { DOMAIN_MESSAGES, withinEmailDomain } from '../../model/domain-input.ts';
import { ServiceError } from '../errors.ts';

/**
 * The Free plan covers the domain of the account's company e-mail address and its subdomains,
 * whichever way the domain is added (a TXT record or a DNS connection). Anyone can type an address
 * their provider never checked: only a verified one names a company.
 */
export function assertFreeTierDomain(
  user: { tier: string; email: string | null },
  emailVerified: boolean,
  domain: string,
): void {
  if (user.tier !== 'free') return;
  if (!emailVerified)
    throw new ServiceError('invalid', 'VALIDATION_ERROR', DOMAIN_MESSAGES.freeTierUnverifiedEmail);
  const own = companyDomain(user.email);
  if (!own) throw new ServiceError('invalid', 'VALIDATION_ERROR', DOMAIN_MESSAGES.freeTierNoEmailDomain);
  if (!withinEmailDomain(domain, own))
    throw new ServiceError('invalid', 'VALIDATION_ERROR', DOMAIN_MESSAGES.freeTier(own));
}
