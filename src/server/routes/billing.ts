import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  billingInfo,
  cancelSubscription,
  requireBilling,
  stripeCustomerFor,
  workspaceBilling,
} from '../../core/billing/info.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { handleStripeEvent } from '../../core/billing/subscriptions.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import {
  CHECKOUT_RETURN_PATH,
  hasPaidSubscription,
  planForCheckout,
  type SubscriptionStatus,
} from '../../model/billing.ts';
import { fieldMessage } from '../../model/messages.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { can } from '../../model/workspaces.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { callerIn } from '../workspace-scope.ts';

interface BillingDeps {
  billing?: Billing;
  /** The public origin checkout may return to; the request's own origin when unset. */
  publicUrl?: string;
  now: () => Date;
}

const checkoutSchema = z.strictObject({
  planId: z.string().min(1).max(40),
  successUrl: z.url().max(2000),
  cancelUrl: z.url().max(2000),
});

/** Checkout may only come back to our own settings page, never send the browser elsewhere. */
function assertReturnUrl(value: string, origin: string, flag: 'success' | 'canceled'): void {
  const url = new URL(value);
  const expected = new URL(`${CHECKOUT_RETURN_PATH}&${flag}=true`, origin);
  if (
    url.origin !== expected.origin ||
    url.pathname !== expected.pathname ||
    url.searchParams.get(flag) !== 'true'
  ) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      fieldMessage([flag === 'success' ? 'successUrl' : 'cancelUrl'], `must be ${expected.toString()}`),
    );
  }
}

/**
 * Every billing endpoint, under the paths the browser and Stripe already call: the plan and its
 * state (`GET /auth/billing`, `GET /api/billing/info`), Stripe Checkout and the billing portal,
 * cancelling (`POST /api/auth/billing/cancel`), and Stripe's webhook. Mounted at the root so the
 * full paths are written here. Each acts on the workspace X-Workspace-ID names (the personal one
 * without it): every member sees its plan and usage; its owners see invoices, buy, change and
 * cancel.
 */
export function billingRoutes(db: Db, auth: AuthDeps | undefined, deps: BillingDeps) {
  const authed = requireAuth(auth);
  const originOf = (requestUrl: string, header: string | undefined) =>
    deps.publicUrl ? new URL(deps.publicUrl).origin : (header ?? new URL(requestUrl).origin);
  const info = async (c: Context<AuthedEnv>) => {
    const { workspace } = await callerIn(db, c, 'read');
    const row = await workspaceBilling(db, workspace.id);
    const owner = can(workspace.role, 'workspace.billing');
    return c.json(await billingInfo(db, deps.billing, row, deps.now(), c.get('logger'), owner));
  };
  return new Hono<AuthedEnv>()
    .get('/auth/billing', authed, info)
    .get('/api/billing/info', authed, info)
    .post('/api/auth/billing/cancel', authed, async (c) => {
      const { user, workspace } = await callerIn(db, c, 'workspace.billing');
      const actor = { userId: user.id, ip: c.get('clientAddress') };
      await cancelSubscription(
        db,
        deps.billing,
        await workspaceBilling(db, workspace.id),
        actor,
        c.get('logger'),
      );
      const after = await workspaceBilling(db, workspace.id);
      return c.json(await billingInfo(db, deps.billing, after, deps.now(), c.get('logger'), true));
    })
    .post('/api/billing/create-checkout-session', authed, limitBody(BODY_LIMIT_KB.standard), async (c) => {
      const { user, workspace } = await callerIn(db, c, 'workspace.billing');
      const body = await readJson(c, checkoutSchema);
      const billing = requireBilling(deps.billing);
      const plan = planForCheckout(body.planId);
      if (!plan || plan.priceCents === 0) {
        throw new ApiError(
          400,
          'VALIDATION_ERROR',
          fieldMessage(['planId'], `must name a paid plan; none is called '${body.planId}'`),
        );
      }
      const price = billing.prices[plan.id];
      if (!price) throw new ApiError(409, 'PLAN_NOT_FOR_SALE', `${plan.name} is not sold on this server`);
      const origin = originOf(c.req.url, c.req.header('origin'));
      assertReturnUrl(body.successUrl, origin, 'success');
      assertReturnUrl(body.cancelUrl, origin, 'canceled');
      const row = await workspaceBilling(db, workspace.id);
      const subscribed = hasPaidSubscription({
        plan: { price: getPlanForTier(row.tier).priceCents },
        subscriptionStatus: row.subscriptionStatus as SubscriptionStatus,
      });
      if (subscribed) {
        const who = row.personal ? 'You are' : `${row.name} is`;
        throw new ApiError(
          409,
          'ALREADY_SUBSCRIBED',
          `${who} subscribed to ${getPlanForTier(row.tier).name}: change plans in the billing portal`,
        );
      }
      const customer = await stripeCustomerFor(db, billing, row, user);
      const session = await billing.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: row.id,
        line_items: [{ price, quantity: 1 }],
        subscription_data: { metadata: { workspaceId: row.id } },
        success_url: body.successUrl,
        cancel_url: body.cancelUrl,
      });
      if (!session.url) throw new ApiError(502, 'BILLING_UNAVAILABLE', 'Stripe gave no checkout page');
      return c.json({ url: session.url });
    })
    .post('/api/billing/create-portal-session', authed, async (c) => {
      const { workspace } = await callerIn(db, c, 'workspace.billing');
      const billing = requireBilling(deps.billing);
      const row = await workspaceBilling(db, workspace.id);
      if (!row.stripeCustomerId) {
        throw new ApiError(409, 'NO_BILLING_ACCOUNT', 'You have no billing account yet: choose a plan first');
      }
      const session = await billing.stripe.billingPortal.sessions.create({
        customer: row.stripeCustomerId,
        return_url: new URL(CHECKOUT_RETURN_PATH, originOf(c.req.url, c.req.header('origin'))).toString(),
      });
      return c.json({ url: session.url });
    })
    .post('/api/billing/webhook', limitBody(BODY_LIMIT_KB.stripeEvent), async (c) => {
      const billing = requireBilling(deps.billing);
      if (!billing.webhookSecret) {
        throw new ApiError(503, 'BILLING_NOT_CONFIGURED', 'STRIPE_WEBHOOK_SECRET is not set on this server');
      }
      const signature = c.req.header('stripe-signature');
      if (!signature) throw new ApiError(400, 'INVALID_SIGNATURE', 'The Stripe-Signature header is missing');
      const payload = await c.req.text();
      let event: ReturnType<typeof billing.stripe.webhooks.constructEvent>;
      try {
        event = billing.stripe.webhooks.constructEvent(payload, signature, billing.webhookSecret);
      } catch {
        throw new ApiError(400, 'INVALID_SIGNATURE', 'The Stripe signature does not match this event');
      }
      const outcome = await handleStripeEvent(db, billing, event, c.get('logger'));
      c.get('logger').info({ event: event.id, type: event.type, outcome }, 'Stripe event');
      return c.json({ received: true, duplicate: outcome === 'duplicate' });
    });
}
