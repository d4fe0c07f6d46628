/**
 * Free webmail, by brand: any domain whose first label is one of these (gmail.com, yahoo.co.uk,
 * gmx.de, yandex.ru …) is a mailbox provider's, not a company's.
 */
const WEBMAIL_BRANDS = new Set([
  'gmail',
  'googlemail',
  'outlook',
  'hotmail',
  'windowslive',
  'yahoo',
  'ymail',
  'rocketmail',
  'icloud',
  'protonmail',
  'aol',
  'gmx',
  'yandex',
  'zoho',
  'zohomail',
  'tutanota',
  'tutamail',
  'fastmail',
  'hushmail',
  'posteo',
  'naver',
  'hanmail',
  'rediffmail',
  'libero',
  'seznam',
  'rambler',
  'interia',
  'laposte',
  'wanadoo',
  'virgilio',
  'tiscali',
  'btinternet',
  'comcast',
  'verizon',
  'sbcglobal',
  'earthlink',
  'optonline',
  'sympatico',
  'bigpond',
  'optusnet',
]);
/** Free webmail whose first label is too common a word to mark every domain that starts with it. */
const WEBMAIL_DOMAINS = new Set([
  'live.com',
  'msn.com',
  'me.com',
  'mac.com',
  'aim.com',
  'pm.me',
  'proton.me',
  'tuta.io',
  'tuta.com',
  'mail.com',
  'email.com',
  'usa.com',
  'post.com',
  'mail.ru',
  'bk.ru',
  'inbox.ru',
  'list.ru',
  'ya.ru',
  'web.de',
  't-online.de',
  'freenet.de',
  'mailbox.org',
  'qq.com',
  '163.com',
  '126.com',
  'yeah.net',
  'sina.com',
  'sina.cn',
  'sohu.com',
  'daum.net',
  'free.fr',
  'orange.fr',
  'sfr.fr',
  'wp.pl',
  'o2.pl',
  'onet.pl',
  'ukr.net',
  'abv.bg',
  'att.net',
  'cox.net',
  'charter.net',
  'shaw.ca',
  'rogers.com',
  'xtra.co.nz',
  'duck.com',
  'hey.com',
  'disroot.org',
  'riseup.net',
]);

/**
 * The company domain of an e-mail address: the part after @, or nothing for free
 * webmail (gmail.com, outlook.com, yahoo.co.uk …).
 */
export function companyDomain(email: string | null | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 0) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (!domain || WEBMAIL_DOMAINS.has(domain) || WEBMAIL_BRANDS.has(domain.split('.')[0] ?? ''))
    return undefined;
  return domain;
}
