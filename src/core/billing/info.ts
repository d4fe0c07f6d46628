import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import { workspaces } from '../../db/schema.ts';
import type { BillingInfo, InvoiceView, SubscriptionStatus } from '../../model/billing.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { audit } from '../audit.ts';
import { quotaView } from '../domains/quota.ts';
import { ServiceError } from '../errors.ts';
import { INVOICES_SHOWN } from '../limits.ts';
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
export async function workspaceBilling(db: Db, workspaceId: string): Promise<WorkspaceBilling> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!row) throw new ServiceError('not-found', 'NOT_FOUND', 'Workspace not found');
  return row;
}

/**
 * The plan tab's billing info of a workspace: the plan and subscription from its row (kept by
 * Stripe's webhooks), usage from real rows, the last invoices from Stripe itself, for those who may
 * see them (`withInvoices`: the owners). When Stripe cannot be reached the rest still answers,
 * with `invoicesUnavailable`.
 */
export async function billingInfo(
  db: Db,
  billing: Billing | undefined,
  workspace: WorkspaceBilling,
  now: Date,
  logger: Logger,
  withInvoices: boolean,
): Promise<BillingInfo> {
  const plan = getPlanForTier(workspace.tier);
  const quota = await quotaView(db, workspace, now);
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
  workspace: WorkspaceBilling,
  actor: { userId: string; ip: string },
  logger: Logger,
): Promise<void> {
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
  await applySubscription(db, stripe, subscription, logger);
  await audit(db, {
    userId: actor.userId,
    workspaceId: workspace.id,
    action: 'subscription.canceled',
    detail: { subscription: subscription.id },
    ip: actor.ip,
  });
}

/**
 * The workspace's Stripe customer, made at its first checkout and kept on the workspace. Receipts
 * go to the owner who checks out; the customer is named after the workspace, or for a personal
 * one after its owner.
 */
export async function stripeCustomerFor(
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
