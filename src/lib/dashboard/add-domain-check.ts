import { companyDomain } from '../../model/company-domain.ts';
import { checkDomainFormat, cleanDomainInput, type DomainCheck } from '../../model/domain-input.ts';
import { freeTierRefusal } from '../../model/free-tier.ts';

interface AddDomainContext {
  /** The plan id of the user ('free' limits the domains to the e-mail domain). */
  tier: string;
  email: string | null | undefined;
}

/**
 * The add-domain field's rule, on the host name in what was typed (a pasted URL is cut to it):
 * required, valid, and on the free tier the user's company
 * e-mail domain or one of its subdomains. Free webmail (gmail.com …) is no company domain.
 */
export function checkAddDomainInput(input: string, context: AddDomainContext): DomainCheck {
  const check = checkDomainFormat(cleanDomainInput(input));
  if (!check.ok) return check;
  const refusal = freeTierRefusal(context, check.domain);
  return refusal ? { ok: false, message: refusal } : check;
}

/** The domain the add modal suggests: the company e-mail domain, unless it is already monitored. */
export function suggestedDomain(
  email: string | null | undefined,
  monitored: readonly string[],
): string | null {
  const domain = companyDomain(email);
  if (!domain || monitored.includes(domain) || !checkDomainFormat(domain).ok) return null;
  return domain;
}
