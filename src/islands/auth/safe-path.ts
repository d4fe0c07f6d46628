/**
 * The path to return to after sign-in, from `?from=`: only a path on this site (never `//host` or
 * a scheme), else /dashboard.
 */
export function returnPath(search: string): string {
  const from = new URLSearchParams(search).get('from');
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/dashboard';
  if (from.startsWith('/login') || from.startsWith('/auth/')) return '/dashboard';
  return from;
}

export function loginUrl(location: { pathname: string; search: string; hash?: string }): string {
  return `/login?from=${encodeURIComponent(`${location.pathname}${location.search}${location.hash ?? ''}`)}`;
}
