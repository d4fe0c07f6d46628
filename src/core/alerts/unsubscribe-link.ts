import { createHmac, timingSafeEqual } from 'node:crypto';

export const UNSUBSCRIBE_SECRET = 'unsubscribe-links';

/**
 * What a link signs: the domain, and the member it was mailed to. Links mailed before alerts went
 * to each member on their own name the domain only, and still work as they did.
 */
function signature(secret: string, domainId: string, userId: string | undefined): string {
  const subject = userId === undefined ? `unsubscribe:${domainId}` : `unsubscribe:${domainId}:${userId}`;
  return createHmac('sha256', secret).update(subject).digest('base64url');
}

/**
 * The one-click unsubscribe link in one member's alert about a domain: works without sign-in,
 * cannot be forged, and speaks for that member alone.
 */
export function unsubscribeUrl(publicUrl: string, secret: string, domainId: string, userId: string): string {
  const url = new URL('/alerts/unsubscribe', publicUrl);
  url.searchParams.set('d', domainId);
  url.searchParams.set('u', userId);
  url.searchParams.set('s', signature(secret, domainId, userId));
  return url.toString();
}

export function verifyUnsubscribe(
  secret: string,
  domainId: string,
  userId: string | undefined,
  given: string,
): boolean {
  const expected = Buffer.from(signature(secret, domainId, userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
