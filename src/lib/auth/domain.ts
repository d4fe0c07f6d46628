import { isValidDomain } from '../request/domain-format.ts';

const WEBMAIL = ['gmail', 'outlook', 'hotmail', 'yahoo', 'icloud', 'protonmail', 'aol'];

/**
 * The company domain of an e-mail address (spec 1 §5): the part after @, or nothing for free
 * webmail (gmail.com, outlook.com, yahoo.co.uk …).
 */
export function companyDomain(email: string | null | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 0) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (!domain || WEBMAIL.includes(domain.split('.')[0] ?? '')) return undefined;
  return domain;
}

/** The auth context's domain check: false for anything that is not a well-formed domain. */
export function validateDomain(domain: string): boolean {
  try {
    return isValidDomain(domain);
  } catch {
    return false;
  }
}

export interface QuotaCheck {
  allowed: boolean;
  /** null: unlimited. */
  remaining: number | null;
}

/** Whether the user may start a scan now, from the server's quota; a failure means no (spec 1 §8). */
export async function checkScanQuota(
  getUser: () => Promise<{ quota: { remaining: number | null; daily: number | null } }>,
): Promise<QuotaCheck> {
  try {
    const { quota } = await getUser();
    if (quota.daily === null) return { allowed: true, remaining: null };
    const remaining = quota.remaining ?? 0;
    return { allowed: remaining > 0, remaining };
  } catch {
    return { allowed: false, remaining: 0 };
  }
}
