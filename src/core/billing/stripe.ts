import type Stripe from 'stripe';
import { onSale, PLANS, type Plan, type PlanId } from '../../model/plans.ts';

/** What billing needs: the Stripe client, the webhook signing secret and the price of each plan sold. */
export interface Billing {
  stripe: Stripe;
  /** Without it, POST /api/billing/webhook refuses every event (nothing unsigned changes a plan). */
  webhookSecret?: string;
  prices: Partial<Record<PlanId, string>>;
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
