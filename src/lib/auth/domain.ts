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
