import Stripe from 'stripe';

/**
 * Stripe calls give up after this long (the SDK's default is 80 s): a webhook reads the
 * subscription while it holds the account's row lock, and Stripe retries a refused event anyway.
 */
const STRIPE_TIMEOUT_MS = 20_000;

/** The SDK, pointed at Stripe or at a Stripe-compatible server (tests, a local mock). */
export function stripeClient(secretKey: string, apiUrl?: string): Stripe {
  if (!apiUrl) return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: STRIPE_TIMEOUT_MS });
  const url = new URL(apiUrl);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
    timeout: STRIPE_TIMEOUT_MS,
  });
}

/** The id behind a Stripe field that is either an id or an expanded object. */
export function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.id;
}
