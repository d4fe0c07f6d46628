import { companyDomain } from './company-domain.ts';
import { DOMAIN_MESSAGES, withinEmailDomain } from './domain-input.ts';
import { getPlan, type Plan } from './plans.ts';

/** Which domain Free covers, in the words every page that offers Free uses. */
export const FREE_DOMAIN_RULE = "your company's domain: the one in your work e-mail";

/** The Free rule as a sentence, said wherever Free is offered, before it can bite. */
export const FREE_DOMAIN_SENTENCE = `The ${getPlan('free').name} plan covers ${FREE_DOMAIN_RULE}, and its subdomains; a webmail address (gmail.com, outlook.com …) has no company domain.`;

/** Free signed in with webmail: no domain at all can be added, by TXT record or DNS connection. */
export function freeCoversNothing(tier: string, email: string | null | undefined): boolean {
  return tier === 'free' && !companyDomain(email);
}

/** A plan's rule on which domains it covers, or null when it covers any domain its account proves. */
export function planDomainRule(plan: Plan): string | null {
  return plan.id === 'free' ? FREE_DOMAIN_SENTENCE : null;
}

/**
 * The Free plan's rule: it covers the domain of the account's company e-mail address and its
 * subdomains, whichever way the domain is added; free webmail (gmail.com …) names no company, and
 * only an address the identity provider verified names one. Returns why `domain` is refused, or
 * undefined when the rule lets it through (any paid plan does). `emailVerified` undefined: not
 * known here (the browser's early check), so not checked.
 */
export function freeTierRefusal(
  account: { tier: string; email: string | null | undefined; emailVerified?: boolean },
  domain: string,
): string | undefined {
  if (account.tier !== 'free') return undefined;
  if (account.emailVerified === false) return DOMAIN_MESSAGES.freeTierUnverifiedEmail;
  const own = companyDomain(account.email);
  if (!own) return DOMAIN_MESSAGES.freeTierNoEmailDomain;
  if (!withinEmailDomain(domain, own)) return DOMAIN_MESSAGES.freeTier(own);
  return undefined;
}

/**
 * Where a webmail account on Free meets the Free rule before it can try anything: what each screen
 * says above the rule (WebmailNotice). The Cloud and Integrations tabs say what the account would be
 * used for, before anyone hands over a key for a workspace that can monitor no domain.
 */
export const WEBMAIL_ON_FREE_LEADS = {
  scans: 'A scan checks a domain this workspace monitors, and on this plan there is none it can monitor yet.',
  domains: 'Before you add a domain: on this plan there is none this workspace can monitor yet.',
  cloud:
    'A cloud account is used to prove the findings of the domains this workspace monitors: that an address or resource a record points to is no longer yours. With no domain to monitor, it would have nothing to prove yet.',
  integrations:
    'An integration opens an issue, or pages someone, for each finding on the domains this workspace monitors. With no domain to monitor, it would have nothing to send yet.',
} as const;
