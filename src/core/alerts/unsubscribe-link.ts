import { createHmac, timingSafeEqual } from 'node:crypto';

export const UNSUBSCRIBE_SECRET = 'unsubscribe-links';

function signature(secret: string, domainId: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${domainId}`).digest('base64url');
}

/** The one-click unsubscribe link of one domain's alerts: works without sign-in, cannot be forged. */
export function unsubscribeUrl(publicUrl: string, secret: string, domainId: string): string {
  const url = new URL('/alerts/unsubscribe', publicUrl);
  url.searchParams.set('d', domainId);
  url.searchParams.set('s', signature(secret, domainId));
  return url.toString();
}

export function verifyUnsubscribe(secret: string, domainId: string, given: string): boolean {
  const expected = Buffer.from(signature(secret, domainId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
