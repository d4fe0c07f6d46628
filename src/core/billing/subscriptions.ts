import { eq, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { idOf } from '../../connectors/stripe/stripe.ts';
import { type Db, inTransaction } from '../../db/client.ts';
import { stripeEvents, workspaces } from '../../db/schema.ts';
import type { SubscriptionStatus } from '../../model/billing.ts';
import { audit } from '../audit.ts';
import { applyDomainLimit } from '../domains/plan-limit.ts';
import { ServiceError } from '../errors.ts';
import { workspaceOwner } from '../workspaces/workspaces.ts';
import { type Billing, planForPrice } from './stripe.ts';

type WorkspaceRow = typeof workspaces.$inferSelect;

/** Stripe's subscription states in the five the product shows. */
function statusOf(subscription: Stripe.Subscription): SubscriptionStatus {
  switch (subscription.status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
      return subscription.status as SubscriptionStatus;
    case 'unpaid':
      // Stripe gave up retrying the card: shown as past due (the banner says what to do), and no
      // longer entitled to the plan (see `entitled`).
      return 'past_due';
    case 'incomplete':
      // Not paid yet: nothing is granted until the first invoice is.
      return 'none';
    default:
      return 'canceled';
  }
}

/** Only these keep a paid plan; `unpaid`, `incomplete`, `paused` and the ended states do not. */
function entitled(subscription: Stripe.Subscription): boolean {
  return ['active', 'trialing', 'past_due'].includes(subscription.status);
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

/**
 * The workspace a subscription pays for: its Stripe customer's, else the one its metadata names.
 * Subscriptions made before plans moved onto workspaces name the account (`userId`), whose personal
 * workspace has the account's uid as id.
 */
async function workspaceForSubscription(
  db: Db,
  subscription: Stripe.Subscription,
): Promise<WorkspaceRow | undefined> {
  const customer = idOf(subscription.customer);
  if (customer) {
    const [row] = await db.select().from(workspaces).where(eq(workspaces.stripeCustomerId, customer));
    if (row) return row;
  }
  const id = workspaceIdIn(subscription.metadata);
  if (!id) return undefined;
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

/** The workspace Stripe metadata names (see workspaceForSubscription). */
function workspaceIdIn(metadata: Stripe.Metadata | null | undefined): string | undefined {
  return metadata?.workspaceId ?? metadata?.userId ?? undefined;
}

/**
 * Makes the workspace's plan what the subscription says. The tier changes only here (from Stripe's
 * word: a signed webhook or Stripe's own answer) or by the operator, never from the browser.
 */
export async function applySubscription(
  db: Db,
  billing: Billing,
  subscription: Stripe.Subscription,
  logger: Logger,
): Promise<void> {
  const workspace = await workspaceForSubscription(db, subscription);
  if (!workspace) {
    logger.warn({ subscription: subscription.id }, 'Stripe subscription of no known workspace');
    return;
  }
  // An older subscription ending (e.g. after a switch of plan) must not take the new one's plan away.
  if (workspace.stripeSubscriptionId && workspace.stripeSubscriptionId !== subscription.id) {
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
  const tier = entitled(subscription) && plan ? plan.id : 'free';
  await inTransaction(db, async (tx) => {
    await tx
      .update(workspaces)
      .set({
        tier,
        stripeCustomerId: idOf(subscription.customer) ?? workspace.stripeCustomerId,
        stripeSubscriptionId: status === 'canceled' ? null : subscription.id,
        subscriptionStatus: status,
        currentPeriodEnd: status === 'canceled' ? null : periodEnd(subscription),
        cancelAtPeriodEnd: status === 'canceled' ? false : subscription.cancel_at_period_end,
      })
      .where(eq(workspaces.id, workspace.id));
    if (tier === workspace.tier) return;
    // Domains beyond a smaller plan stop being scanned; a larger one brings them back.
    await applyDomainLimit(tx, workspace.id);
    const actor = await workspaceOwner(tx, workspace.id);
    if (actor) {
      await audit(tx, {
        userId: actor,
        workspaceId: workspace.id,
        action: 'plan.changed',
        detail: { from: workspace.tier, to: tier, source: 'stripe', subscription: subscription.id },
      });
    }
  });
}

/** The subscription an invoice bills: under `parent` in current API versions, top-level before. */
function invoiceSubscription(invoice: Stripe.Invoice): string | undefined {
  const legacy = (invoice as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/** What an event is about: the subscription whose state to read, and who it bills. */
interface EventSubject {
  subscriptionId?: string;
  customer?: string;
  workspaceId?: string;
  /** The event's own copy of the subscription, used only when Stripe no longer has it. */
  snapshot?: Stripe.Subscription;
}

function subjectOf(event: Stripe.Event): EventSubject {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        subscriptionId: idOf(session.subscription),
        customer: idOf(session.customer),
        workspaceId: session.client_reference_id ?? undefined,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      return {
        subscriptionId: subscription.id,
        customer: idOf(subscription.customer),
        workspaceId: workspaceIdIn(subscription.metadata),
        snapshot: subscription,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return {
        subscriptionId: invoiceSubscription(invoice),
        customer: idOf(invoice.customer),
        workspaceId: workspaceIdIn(invoice.parent?.subscription_details?.metadata),
      };
    }
    default:
      return {};
  }
}

/**
 * Stripe's current state of a subscription. Events arrive in any order and failed deliveries are
 * retried for days, so an event's own copy may be older than one applied before it: the plan is
 * always made from a fresh read. When Stripe cannot be read the event is refused (503) and not
 * recorded, so Stripe delivers it again later; it is never applied from its copy.
 */
async function currentSubscription(
  billing: Billing,
  subject: EventSubject & { subscriptionId: string },
  logger: Logger,
): Promise<Stripe.Subscription | undefined> {
  try {
    return await billing.stripe.subscriptions.retrieve(subject.subscriptionId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
      // Stripe keeps ended subscriptions, so one it no longer knows is gone for good: nothing to pay for.
      logger.warn({ subscription: subject.subscriptionId }, 'Stripe no longer knows this subscription');
      return subject.snapshot ? { ...subject.snapshot, status: 'canceled' } : undefined;
    }
    logger.warn({ err: error, subscription: subject.subscriptionId }, 'Stripe could not be read');
    throw new ServiceError(
      'unavailable',
      'BILLING_UNAVAILABLE',
      'Stripe could not be reached to read the subscription; deliver the event again later',
    );
  }
}

/**
 * Applies one verified Stripe event, at most once: the event id is recorded in the same
 * transaction as its effect, so a replay finds it and changes nothing. The workspace's row is
 * locked before Stripe is read, so two events of one workspace are applied one after the other,
 * each from a read made after the other's write.
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
    const subject = subjectOf(event);
    if (!subject.subscriptionId) {
      logger.debug({ type: event.type }, 'Stripe event not used');
      return 'applied';
    }
    const payers = [
      subject.customer ? eq(workspaces.stripeCustomerId, subject.customer) : undefined,
      subject.workspaceId ? eq(workspaces.id, subject.workspaceId) : undefined,
    ].filter((condition) => condition !== undefined);
    if (payers.length) {
      await txDb
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(or(...payers))
        .for('update');
    }
    if (event.type === 'checkout.session.completed' && subject.workspaceId && subject.customer) {
      await txDb
        .update(workspaces)
        .set({ stripeCustomerId: subject.customer })
        .where(eq(workspaces.id, subject.workspaceId));
    }
    const subscription = await currentSubscription(
      billing,
      { ...subject, subscriptionId: subject.subscriptionId },
      logger,
    );
    if (subscription) await applySubscription(txDb, billing, subscription, logger);
    return 'applied';
  });
}
