const FALLBACK = '/dashboard';

/**
 * The path to return to after sign-in, from `?from=`: only a path on this site, else /dashboard.
 * Browsers forgive a lot in URLs (tabs and newlines are dropped, `\` reads as `/`), so the raw value
 * is refused when it holds any of those, and what is left must resolve to this origin.
 */
export function returnPath(search: string, origin: string): string {
  const from = new URLSearchParams(search).get('from');
  if (!from?.startsWith('/') || from.startsWith('//')) return FALLBACK;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(from)) return FALLBACK;
  let url: URL;
  try {
    url = new URL(from, origin);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== new URL(origin).origin) return FALLBACK;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith('//') || path.startsWith('/login') || path.startsWith('/auth/')) return FALLBACK;
  return path;
}

export function loginUrl(location: { pathname: string; search: string; hash?: string }): string {
  return `/login?from=${encodeURIComponent(`${location.pathname}${location.search}${location.hash ?? ''}`)}`;
}
