import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { workspaces } from '../../db/schema.ts';
import { type SubscriptionStatus, subscriptionSettled } from '../../model/billing.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { ServiceError } from '../errors.ts';
import type { Billing } from './stripe.ts';

/**
 * Closing the billing of workspaces that are about to be deleted (with their account, or alone):
 * a paid subscription that would renew is cancelled by its owner first, so deleting never leaves
 * one billing; then their Stripe customers go, before any row does.
 */

/** Refuses while any of these workspaces has a paid subscription that renews, naming it. */
export async function assertBillingSettled(db: Db, workspaceIds: string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  const rows = await db.select().from(workspaces).where(inArray(workspaces.id, workspaceIds));
  const renewing = rows.filter(
    (row) =>
      !subscriptionSettled({
        plan: { price: getPlanForTier(row.tier).priceCents },
        subscriptionStatus: row.subscriptionStatus as SubscriptionStatus,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      }),
  );
  const [first] = renewing;
  if (!first) return;
  throw new ServiceError(
    'conflict',
    'SUBSCRIPTION_ACTIVE',
    first.personal
      ? 'Please cancel your subscription first'
      : `Please cancel the subscription of ${renewing.map((row) => row.name).join(', ')} first`,
  );
}

/**
 * Deletes the Stripe customers of these workspaces, with their saved payment methods and (by
 * Stripe's rule) their subscriptions. One Stripe no longer knows is already gone; any other failure
 * stops the deletion, before anything of ours is gone.
 */
export async function deleteStripeCustomers(
  db: Db,
  billing: Billing | undefined,
  workspaceIds: string[],
): Promise<void> {
  if (!billing || workspaceIds.length === 0) return;
  const rows = await db
    .select({ customer: workspaces.stripeCustomerId })
    .from(workspaces)
    .where(inArray(workspaces.id, workspaceIds));
  for (const { customer } of rows) {
    if (customer) await deleteStripeCustomer(billing, customer);
  }
}

async function deleteStripeCustomer(billing: Billing, customerId: string): Promise<void> {
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
