import { countOf } from './messages.ts';

/** The add-domain messages, word for word (docs/fixed-contract.md). */
export const DOMAIN_MESSAGES = {
  required: 'Domain is required',
  invalid: 'Please enter a valid domain (e.g., example.com or app.example.com)',
  freeTier: (domain: string) => `Free tier is limited to your email domain (${domain}) and its subdomains`,
  freeTierUnverifiedEmail:
    'Free tier is limited to your email domain and its subdomains, and your sign-in provider has not verified your e-mail address. Verify it with your provider and sign in again.',
  freeTierNoEmailDomain:
    'Free tier is limited to your email domain and its subdomains, and your account has no company e-mail domain',
  limit: (max: number) => `You've reached the maximum of ${countOf(max, 'domain')} for your current plan`,
  reserved: 'This name is reserved for private or special use and cannot be monitored',
} as const;

/** Suffixes that never name a public, scannable domain (RFC 2606, 6761, 6762, 7686, 8375; ICANN .internal). */
const RESERVED_SUFFIXES = ['localhost', 'local', 'internal', 'test', 'invalid', 'example', 'onion', 'arpa'];

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Every way a browser or resolver reads a host as an IPv4 number: dotted, short, hex, octal, decimal. */
function looksLikeIpv4(host: string): boolean {
  const parts = host.split('.');
  if (parts.length > 4) return false;
  return parts.every((p) => /^(0x[0-9a-f]*|[0-9]+)$/i.test(p));
}

export type DomainCheck = { ok: true; domain: string } | { ok: false; message: string };

/**
 * The domain format rule, made strict: the trimmed, lower-cased name of at least two labels of
 * letters, digits and inner hyphens (63 at most each, 253 in all), and never an IP literal,
 * localhost or a reserved name.
 */
export function checkDomainFormat(input: string): DomainCheck {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (domain === '') return { ok: false, message: DOMAIN_MESSAGES.required };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(domain) || domain.length > 253) {
    return { ok: false, message: DOMAIN_MESSAGES.invalid };
  }
  if (domain.includes(':') || domain.startsWith('[') || looksLikeIpv4(domain)) {
    return { ok: false, message: DOMAIN_MESSAGES.invalid };
  }
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, message: DOMAIN_MESSAGES.invalid };
  }
  const last = labels.at(-1) ?? '';
  // A top-level label is never all digits; this also catches numeric forms missed above.
  if (/^[0-9]+$/.test(last) || RESERVED_SUFFIXES.includes(last)) {
    return { ok: false, message: DOMAIN_MESSAGES.reserved };
  }
  return { ok: true, domain };
}

/**
 * The host name in what was typed or pasted: a URL ('https://acme-widgets.com/login'), a name with
 * a path or a port ('example.com/', 'acme.io:8443'), or 'user@host' are cut to the host, which the
 * dialog shows for confirmation. Anything else comes back trimmed, for the format rule to judge.
 */
export function cleanDomainInput(input: string): string {
  return input
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^[^/?#@]*@/, '')
    .replace(/[/?#].*$/s, '')
    .replace(/:\d*$/, '');
}

/** Free tier: the e-mail domain itself or a name ending in a dot plus it. */
export function withinEmailDomain(domain: string, emailDomain: string): boolean {
  return domain === emailDomain || domain.endsWith(`.${emailDomain}`);
}
