import Stripe from 'stripe';
import { onSale, PLANS, type Plan, type PlanId } from '../../model/plans.ts';

/** What billing needs: the Stripe client, the webhook signing secret and the price of each plan sold. */
export interface Billing {
  stripe: Stripe;
  /** Without it, POST /api/billing/webhook refuses every event (nothing unsigned changes a plan). */
  webhookSecret?: string;
  prices: Partial<Record<PlanId, string>>;
}

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

/** The catalogue plan a Stripe price sells, if this server sells it. */
export function planForPrice(billing: Billing, priceId: string | undefined): Plan | undefined {
  if (!priceId) return undefined;
  const entry = Object.entries(billing.prices).find(([, price]) => price === priceId);
  return entry ? PLANS.find((plan) => plan.id === entry[0]) : undefined;
}

/** The plans on sale with a Stripe price: the ones a checkout can sell (a roadmap plan never is). */
export function purchasablePlans(billing: Billing | undefined): PlanId[] {
  return billing
    ? PLANS.filter((plan) => onSale(plan) && billing.prices[plan.id]).map((plan) => plan.id)
    : [];
}

/** The id behind a Stripe field that is either an id or an expanded object. */
export function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.id;
}
