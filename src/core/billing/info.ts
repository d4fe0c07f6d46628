import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { BillingInfo, InvoiceView, SubscriptionStatus } from '../../model/billing.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { audit } from '../audit.ts';
import { quotaView } from '../domains/quota.ts';
import { ServiceError } from '../errors.ts';
import { INVOICES_SHOWN } from '../limits.ts';
import { type Billing, purchasablePlans } from './stripe.ts';
import { applySubscription } from './subscriptions.ts';

type UserRow = typeof users.$inferSelect;

function invoiceView(invoice: Stripe.Invoice): InvoiceView {
  const status: InvoiceView['status'] =
    invoice.status === 'paid' ? 'paid' : invoice.status === 'open' ? 'open' : 'void';
  return {
    id: invoice.id ?? invoice.number ?? 'unknown',
    amount: status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    date: new Date(invoice.created * 1000).toISOString(),
    status,
    downloadUrl: invoice.invoice_pdf ?? invoice.hosted_invoice_url ?? null,
  };
}

/**
 * The plan tab's billing info: the plan and subscription from the user's row (kept by Stripe's
 * webhooks), usage from real rows, the last invoices from Stripe itself. When Stripe cannot be
 * reached the rest still answers, with `invoicesUnavailable`.
 */
export async function billingInfo(
  db: Db,
  billing: Billing | undefined,
  user: UserRow,
  now: Date,
  logger: Logger,
): Promise<BillingInfo> {
  const plan = getPlanForTier(user.tier);
  const quota = await quotaView(db, user, now);
  let invoices: InvoiceView[] = [];
  let invoicesUnavailable = false;
  if (billing && user.stripeCustomerId) {
    try {
      const list = await billing.stripe.invoices.list({
        customer: user.stripeCustomerId,
        limit: INVOICES_SHOWN,
      });
      invoices = list.data.map(invoiceView);
    } catch (error) {
      logger.error({ err: error }, 'could not list Stripe invoices');
      invoicesUnavailable = true;
    }
  }
  return {
    plan: { id: plan.id, name: plan.name, price: plan.priceCents / 100, interval: 'month' },
    subscriptionStatus: user.subscriptionStatus as SubscriptionStatus,
    currentPeriodEnd: user.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    usage: {
      domainsMonitored: quota.currentDomains,
      scansUsed: quota.scansUsedToday,
      scansThisMonth: quota.scansUsedThisMonth,
    },
    invoices,
    ...(invoicesUnavailable ? { invoicesUnavailable } : {}),
    billing: { configured: Boolean(billing), purchasable: purchasablePlans(billing) },
  };
}

export function requireBilling(billing: Billing | undefined): Billing {
  if (!billing) {
    throw new ServiceError(
      'unavailable',
      'BILLING_NOT_CONFIGURED',
      'Billing is not configured on this server',
    );
  }
  return billing;
}

/**
 * Cancels at the end of the paid period (the plan stays until then). The row follows
 * Stripe's answer, as it would the webhook that Stripe sends as well.
 */
export async function cancelSubscription(
  db: Db,
  billing: Billing | undefined,
  user: UserRow,
  logger: Logger,
  ip: string,
): Promise<void> {
  if (!user.stripeSubscriptionId) {
    if (getPlanForTier(user.tier).priceCents > 0) {
      // A plan the operator granted: nothing is billed, so nothing to cancel in Stripe.
      throw new ServiceError(
        'conflict',
        'NO_SUBSCRIPTION',
        'Your plan was set by the operator and is not billed',
      );
    }
    throw new ServiceError('conflict', 'NO_SUBSCRIPTION', 'You have no subscription to cancel');
  }
  const stripe = requireBilling(billing);
  const subscription = await stripe.stripe.subscriptions.update(user.stripeSubscriptionId, {
    cancel_at_period_end: true,
  });
  await applySubscription(db, stripe, subscription, logger);
  await audit(db, {
    userId: user.id,
    action: 'subscription.canceled',
    detail: { subscription: subscription.id },
    ip,
  });
}

/**
 * Deletes the account's Stripe customer, with its saved payment methods, when the account is
 * deleted. One Stripe no longer knows is already gone; any other failure stops the deletion.
 */
export async function deleteStripeCustomer(billing: Billing, customerId: string): Promise<void> {
  try {
    await billing.stripe.customers.del(customerId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return;
    throw new ServiceError(
      'upstream-failed',
      'BILLING_UNAVAILABLE',
      'Stripe could not be reached to delete your billing details; please try again',
    );
  }
}

/** The account's Stripe customer, made at its first checkout and kept on the account. */
export async function stripeCustomerFor(
  db: Db,
  billing: Billing,
  user: { id: string; email: string | null; displayName: string | null; stripeCustomerId: string | null },
): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const created = await billing.stripe.customers.create({
    email: user.email ?? undefined,
    name: user.displayName ?? undefined,
    metadata: { userId: user.id },
  });
  await db
    .update(users)
    .set({ stripeCustomerId: created.id, updatedAt: sql`now()` })
    .where(eq(users.id, user.id));
  return created.id;
}
