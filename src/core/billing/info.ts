import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import { type Db, inTransaction } from '../../db/client.ts';
import { workspaces } from '../../db/schema.ts';
import {
  type BillingInfo,
  CHECKOUT_RETURN_PATH,
  hasPaidSubscription,
  type InvoiceView,
  planForCheckout,
  type SubscriptionStatus,
} from '../../model/billing.ts';
import { fieldMessage } from '../../model/messages.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { can } from '../../model/workspaces.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { quotaView } from '../domains/quota.ts';
import { ServiceError } from '../errors.ts';
import { INVOICES_SHOWN } from '../limits.ts';
import { currentServerPlan, effectiveTier } from '../server-plan.ts';
import { type Billing, purchasablePlans } from './stripe.ts';
import { applySubscription } from './subscriptions.ts';

/** A workspace's row: its plan and the Stripe subscription it comes from. */
type WorkspaceBilling = typeof workspaces.$inferSelect;

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

/** The workspace's plan and billing state; a workspace that is gone is refused as not found. */
async function workspaceBilling(db: Db, workspaceId: string): Promise<WorkspaceBilling> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Workspace not found');
  return row;
}

/**
 * The plan tab's billing info of the workspace: every member sees its plan and usage, those who
 * may pay for it (its owners) its invoices too.
 */
export async function workspaceBillingInfo(
  db: Db,
  billing: Billing | undefined,
  ctx: WorkspaceContext,
  now: Date,
  logger: Logger,
): Promise<BillingInfo> {
  authorize(ctx, 'read');
  const row = await workspaceBilling(db, ctx.workspace.id);
  return billingInfo(db, billing, row, now, logger, can(ctx.role, 'workspace.billing'));
}

/**
 * A workspace's billing info: the plan and subscription from its row (kept by Stripe's webhooks),
 * usage from real rows, the last invoices from Stripe itself when `withInvoices`. When Stripe
 * cannot be reached the rest still answers, with `invoicesUnavailable`.
 */
async function billingInfo(
  db: Db,
  billing: Billing | undefined,
  workspace: WorkspaceBilling,
  now: Date,
  logger: Logger,
  withInvoices: boolean,
): Promise<BillingInfo> {
  const tier = effectiveTier(workspace.tier);
  const plan = getPlanForTier(tier);
  const quota = await quotaView(db, { ...workspace, tier }, now);
  let invoices: InvoiceView[] = [];
  let invoicesUnavailable = false;
  if (billing && withInvoices && workspace.stripeCustomerId) {
    try {
      const list = await billing.stripe.invoices.list({
        customer: workspace.stripeCustomerId,
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
    subscriptionStatus: workspace.subscriptionStatus as SubscriptionStatus,
    currentPeriodEnd: workspace.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: workspace.cancelAtPeriodEnd,
    usage: {
      domainsMonitored: quota.currentDomains,
      scansUsed: quota.scansUsedToday,
      scansThisMonth: quota.scansUsedThisMonth,
      sharedWith: quota.sharedWith,
    },
    invoices,
    ...(invoicesUnavailable ? { invoicesUnavailable } : {}),
    billing: {
      configured: Boolean(billing),
      purchasable: purchasablePlans(billing),
      serverPlan: currentServerPlan(),
    },
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
 * Cancels the workspace's subscription at the end of the paid period (the plan stays until then).
 * The row follows Stripe's answer, as it would the webhook that Stripe sends as well. Answers the
 * billing info as it is after.
 */
export async function cancelSubscription(
  db: Db,
  billing: Billing | undefined,
  ctx: WorkspaceContext,
  now: Date,
  logger: Logger,
): Promise<BillingInfo> {
  authorize(ctx, 'workspace.billing');
  const workspace = await workspaceBilling(db, ctx.workspace.id);
  if (!workspace.stripeSubscriptionId) {
    if (getPlanForTier(workspace.tier).priceCents > 0) {
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
  const subscription = await stripe.stripe.subscriptions.update(workspace.stripeSubscriptionId, {
    cancel_at_period_end: true,
  });
  await inTransaction(db, async (tx) => {
    await applySubscription(tx, stripe, subscription, logger);
    await auditIn(tx, ctx, 'subscription.canceled', { subscription: subscription.id });
  });
  return billingInfo(db, billing, await workspaceBilling(db, workspace.id), now, logger, true);
}

/**
 * The workspace's Stripe customer, made at its first checkout and kept on the workspace. Receipts
 * go to the owner who checks out; the customer is named after the workspace, or for a personal
 * one after its owner.
 */
async function stripeCustomerFor(
  db: Db,
  billing: Billing,
  workspace: Pick<WorkspaceBilling, 'id' | 'name' | 'personal' | 'stripeCustomerId'>,
  payer: { email: string | null; displayName: string | null },
): Promise<string> {
  if (workspace.stripeCustomerId) return workspace.stripeCustomerId;
  const created = await billing.stripe.customers.create({
    email: payer.email ?? undefined,
    name: (workspace.personal ? payer.displayName : workspace.name) ?? undefined,
    metadata: { workspaceId: workspace.id },
  });
  await db.update(workspaces).set({ stripeCustomerId: created.id }).where(eq(workspaces.id, workspace.id));
  return created.id;
}

/**
 * A Stripe Checkout page for a paid plan, which may only come back to our own settings page; a
 * workspace already on a paid subscription changes plans in the billing portal instead.
 */
export async function startCheckout(
  db: Db,
  billing: Billing | undefined,
  ctx: WorkspaceContext,
  request: { planId: string; successUrl: string; cancelUrl: string; origin: string },
): Promise<string> {
  authorize(ctx, 'workspace.billing');
  const stripe = requireBilling(billing);
  const plan = planForCheckout(request.planId);
  if (!plan || plan.priceCents === 0) {
    throw new ServiceError(
      'invalid',
      'VALIDATION_ERROR',
      fieldMessage(['planId'], `must name a paid plan; none is called '${request.planId}'`),
    );
  }
  if (plan.availability.kind === 'roadmap') {
    throw new ServiceError(
      'conflict',
      'PLAN_NOT_FOR_SALE',
      `${plan.name} is on the roadmap (announced for ${plan.availability.quarter}) and not for sale yet`,
    );
  }
  const price = stripe.prices[plan.id];
  if (!price)
    throw new ServiceError('conflict', 'PLAN_NOT_FOR_SALE', `${plan.name} is not sold on this server`);
  assertReturnUrl(request.successUrl, request.origin, 'success');
  assertReturnUrl(request.cancelUrl, request.origin, 'canceled');
  const row = await workspaceBilling(db, ctx.workspace.id);
  const subscribed = hasPaidSubscription({
    plan: { price: getPlanForTier(row.tier).priceCents },
    subscriptionStatus: row.subscriptionStatus as SubscriptionStatus,
  });
  if (subscribed) {
    const who = row.personal ? 'You are' : `${row.name} is`;
    throw new ServiceError(
      'conflict',
      'ALREADY_SUBSCRIBED',
      `${who} subscribed to ${getPlanForTier(row.tier).name}: change plans in the billing portal`,
    );
  }
  const customer = await stripeCustomerFor(db, stripe, row, ctx.actor);
  const session = await stripe.stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: row.id,
    line_items: [{ price, quantity: 1 }],
    subscription_data: { metadata: { workspaceId: row.id } },
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  });
  if (!session.url)
    throw new ServiceError('upstream-failed', 'BILLING_UNAVAILABLE', 'Stripe gave no checkout page');
  return session.url;
}

/** Checkout may only come back to our own settings page, never send the browser elsewhere. */
function assertReturnUrl(value: string, origin: string, flag: 'success' | 'canceled'): void {
  const url = new URL(value);
  const expected = new URL(`${CHECKOUT_RETURN_PATH}&${flag}=true`, origin);
  if (
    url.origin !== expected.origin ||
    url.pathname !== expected.pathname ||
    url.searchParams.get(flag) !== 'true'
  ) {
    throw new ServiceError(
      'invalid',
      'VALIDATION_ERROR',
      fieldMessage([flag === 'success' ? 'successUrl' : 'cancelUrl'], `must be ${expected.toString()}`),
    );
  }
}

/** A Stripe billing portal session for the workspace's customer, returning to the settings page. */
export async function openBillingPortal(
  db: Db,
  billing: Billing | undefined,
  ctx: WorkspaceContext,
  origin: string,
): Promise<string> {
  authorize(ctx, 'workspace.billing');
  const stripe = requireBilling(billing);
  const row = await workspaceBilling(db, ctx.workspace.id);
  if (!row.stripeCustomerId) {
    throw new ServiceError(
      'conflict',
      'NO_BILLING_ACCOUNT',
      'You have no billing account yet: choose a plan first',
    );
  }
  const session = await stripe.stripe.billingPortal.sessions.create({
    customer: row.stripeCustomerId,
    return_url: new URL(CHECKOUT_RETURN_PATH, origin).toString(),
  });
  return session.url;
}
