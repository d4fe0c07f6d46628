import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import { stripeEvents, users } from '../../db/schema.ts';
import type { SubscriptionStatus } from '../../lib/billing.ts';
import { audit } from '../audit.ts';
import { type Billing, idOf, planForPrice } from './stripe.ts';

type UserRow = typeof users.$inferSelect;

/** Stripe's subscription states in the five the product shows (spec 2 §3). */
function statusOf(subscription: Stripe.Subscription): SubscriptionStatus {
  switch (subscription.status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
      return subscription.status as SubscriptionStatus;
    case 'unpaid':
      return 'past_due';
    case 'incomplete':
      // Not paid yet: nothing is granted until the first invoice is.
      return 'none';
    default:
      return 'canceled';
  }
}

/** Where the current period ends: on the items in current API versions, on the subscription before. */
function periodEnd(subscription: Stripe.Subscription): Date | null {
  const fromItems = subscription.items?.data
    ?.map((item) => item.current_period_end)
    .filter((n): n is number => typeof n === 'number');
  const legacy = (subscription as { current_period_end?: number }).current_period_end;
  const seconds = fromItems?.length ? Math.min(...fromItems) : legacy;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

async function userForSubscription(db: Db, subscription: Stripe.Subscription): Promise<UserRow | undefined> {
  const customer = idOf(subscription.customer);
  if (customer) {
    const [row] = await db.select().from(users).where(eq(users.stripeCustomerId, customer));
    if (row) return row;
  }
  const uid = subscription.metadata?.userId;
  if (!uid) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, uid));
  return row;
}

/**
 * Makes the user's plan what the subscription says. The tier changes only here (from Stripe's word:
 * a signed webhook or Stripe's own answer) or by the operator, never from the browser.
 */
export async function applySubscription(
  db: Db,
  billing: Billing,
  subscription: Stripe.Subscription,
  logger: Logger,
): Promise<void> {
  const user = await userForSubscription(db, subscription);
  if (!user) {
    logger.warn({ subscription: subscription.id }, 'Stripe subscription of no known user');
    return;
  }
  // An older subscription ending (e.g. after a switch of plan) must not take the new one's plan away.
  if (user.stripeSubscriptionId && user.stripeSubscriptionId !== subscription.id) {
    const status = statusOf(subscription);
    if (status === 'canceled' || status === 'none') return;
  }
  const status = statusOf(subscription);
  const priceId = subscription.items?.data?.[0]?.price?.id;
  const plan = planForPrice(billing, priceId);
  if (!plan && status !== 'canceled') {
    logger.error({ subscription: subscription.id, priceId }, 'Stripe price is not in STRIPE_PRICES');
    return;
  }
  const entitled = status === 'active' || status === 'trialing' || status === 'past_due';
  const tier = entitled && plan ? plan.id : 'free';
  await db
    .update(users)
    .set({
      tier,
      stripeCustomerId: idOf(subscription.customer) ?? user.stripeCustomerId,
      stripeSubscriptionId: status === 'canceled' ? null : subscription.id,
      subscriptionStatus: status,
      currentPeriodEnd: status === 'canceled' ? null : periodEnd(subscription),
      cancelAtPeriodEnd: status === 'canceled' ? false : subscription.cancel_at_period_end,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, user.id));
  if (tier !== user.tier) {
    await audit(db, {
      userId: user.id,
      action: 'plan.changed',
      detail: { from: user.tier, to: tier, source: 'stripe', subscription: subscription.id },
    });
  }
}

/** The subscription an invoice bills: under `parent` in current API versions, top-level before. */
function invoiceSubscription(invoice: Stripe.Invoice): string | undefined {
  const legacy = (invoice as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/**
 * Applies one verified Stripe event, at most once: the event id is recorded in the same
 * transaction as its effect, so a replay finds it and changes nothing.
 */
export async function handleStripeEvent(
  db: Db,
  billing: Billing,
  event: Stripe.Event,
  logger: Logger,
): Promise<'applied' | 'duplicate'> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (recorded.length === 0) return 'duplicate';
    const txDb = tx as unknown as Db;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const uid = session.client_reference_id;
        const customer = idOf(session.customer);
        if (uid && customer) {
          await txDb
            .update(users)
            .set({ stripeCustomerId: customer, updatedAt: sql`now()` })
            .where(eq(users.id, uid));
        }
        const subscriptionId = idOf(session.subscription);
        if (subscriptionId) {
          const subscription = await billing.stripe.subscriptions.retrieve(subscriptionId);
          await applySubscription(txDb, billing, subscription, logger);
        }
        break;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await applySubscription(txDb, billing, event.data.object, logger);
        break;
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const subscriptionId = invoiceSubscription(event.data.object);
        if (!subscriptionId) break;
        // Past due until a later invoice is paid; the plan stays while Stripe retries the card.
        await txDb
          .update(users)
          .set({
            subscriptionStatus: event.type === 'invoice.paid' ? 'active' : 'past_due',
            updatedAt: sql`now()`,
          })
          .where(eq(users.stripeSubscriptionId, subscriptionId));
        break;
      }
      default:
        logger.debug({ type: event.type }, 'Stripe event not used');
    }
    return 'applied';
  });
}
