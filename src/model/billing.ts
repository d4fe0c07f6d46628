import { PLANS, type PlanId } from './plans.ts';

/** A subscription's state as Stripe reports it; `none` is the Free plan. */
export type SubscriptionStatus = 'active' | 'canceled' | 'past_due' | 'trialing' | 'none';

export interface InvoiceView {
  id: string;
  /** US cents. */
  amount: number;
  /** ISO 8601. */
  date: string;
  status: 'paid' | 'open' | 'void';
  downloadUrl: string | null;
}

/** The answer of GET /api/billing/info and GET /auth/billing . */
export interface BillingInfo {
  plan: { id: PlanId; name: string; price: number; interval: 'month' };
  subscriptionStatus: SubscriptionStatus;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  usage: {
    domainsMonitored: number;
    scansUsed: number;
    scansThisMonth: number;
    /** The other workspaces whose use is counted with this one's (QuotaView.sharedWith). */
    sharedWith: { id: string; name: string }[];
  };
  /** The last five, newest first; empty without a Stripe customer or without billing. */
  invoices: InvoiceView[];
  /** Stripe could not be asked for the invoices just now. */
  invoicesUnavailable?: true;
  /**
   * Whether this server takes payments, and for which plans (those with a Stripe price); on a
   * server that sells none, the plan every workspace has (DEFAULT_PLAN), null where each has its own.
   */
  billing: { configured: boolean; purchasable: PlanId[]; serverPlan: PlanId | null };
}

/** The checkout's planId: the plan name lower-cased, its first space made a dash. */
export function checkoutPlanId(planName: string): string {
  return planName.toLowerCase().replace(' ', '-');
}

/** The catalogue plan a checkout planId names, if any. */
export function planForCheckout(planId: string): (typeof PLANS)[number] | undefined {
  return PLANS.find((plan) => checkoutPlanId(plan.name) === planId);
}

/** Where checkout sends the browser back. */
export const CHECKOUT_RETURN_PATH = '/dashboard/settings?tab=billing';

type SubscriptionFacts = {
  plan: { price: number };
  subscriptionStatus: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
};

export function hasPaidSubscription(info: Omit<SubscriptionFacts, 'cancelAtPeriodEnd'>): boolean {
  return info.plan.price > 0 && ['active', 'trialing', 'past_due'].includes(info.subscriptionStatus);
}

/** The status badge beside the plan line, where there is a subscription to speak of. */
export type PlanBadge = Exclude<SubscriptionStatus, 'none'>;

/**
 * The current-plan card's one line: the plan, and its price only where a subscription pays it.
 * A plan held without a subscription (given by the operator, or a team's Free) carries no status
 * badge and says that nothing is charged, so nothing on the card invites cancelling what is not there.
 */
export function planLine(info: Pick<BillingInfo, 'plan' | 'subscriptionStatus' | 'billing'>): {
  text: string;
  badge: PlanBadge | null;
} {
  const { plan, subscriptionStatus, billing } = info;
  // Where nothing is sold, nothing is paid: no price and no subscription to speak of.
  if (!billing.configured || plan.price === 0) return { text: plan.name, badge: null };
  if (subscriptionStatus === 'none')
    return { text: `${plan.name} · no subscription, nothing is charged`, badge: null };
  const price = plan.price % 1 === 0 ? `$${plan.price}` : `$${plan.price.toFixed(2)}`;
  return { text: `${plan.name} · ${price}/month`, badge: subscriptionStatus };
}

/** Deletion may go ahead once no paid subscription would renew. */
export function subscriptionSettled(info: SubscriptionFacts): boolean {
  return !hasPaidSubscription(info) || info.cancelAtPeriodEnd;
}

/** The billing FAQ of the plan tab: the legal pages' terms, in short. */
export const BILLING_FAQ: readonly { q: string; a: string }[] = [
  {
    q: 'How am I billed?',
    a: 'Monthly, by card, through Stripe. Plans renew automatically until you cancel; we never see or store your card number.',
  },
  {
    q: 'Can I cancel anytime?',
    a: 'Yes. Your plan stays active until the end of the period you paid for, then you are on Free. Paid periods are not refunded, except annual plans within 30 days, prorated.',
  },
  {
    q: 'What happens if a payment fails?',
    a: 'Stripe retries the card and the plan stays active meanwhile; update your payment method in the billing portal to avoid an interruption.',
  },
  {
    q: 'Where are my invoices?',
    a: 'The last five are listed here; View All Invoices opens the Stripe billing portal with every invoice and receipt.',
  },
];
