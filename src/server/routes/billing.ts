import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  cancelSubscription,
  openBillingPortal,
  requireBilling,
  startCheckout,
  workspaceBillingInfo,
} from '../../core/billing/info.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { handleStripeEvent } from '../../core/billing/subscriptions.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

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
    const ctx = await sessionContext(db, c);
    return c.json(await workspaceBillingInfo(db, deps.billing, ctx, deps.now(), c.get('logger')));
  };
  return new Hono<AuthedEnv>()
    .get('/auth/billing', authed, info)
    .get('/api/billing/info', authed, info)
    .post('/api/auth/billing/cancel', authed, async (c) => {
      const ctx = await sessionContext(db, c);
      return c.json(await cancelSubscription(db, deps.billing, ctx, deps.now(), c.get('logger')));
    })
    .post('/api/billing/create-checkout-session', authed, limitBody(BODY_LIMIT_KB.standard), async (c) => {
      const ctx = await sessionContext(db, c);
      const body = await readJson(c, checkoutSchema);
      const origin = originOf(c.req.url, c.req.header('origin'));
      return c.json({ url: await startCheckout(db, deps.billing, ctx, { ...body, origin }) });
    })
    .post('/api/billing/create-portal-session', authed, async (c) => {
      const ctx = await sessionContext(db, c);
      const origin = originOf(c.req.url, c.req.header('origin'));
      return c.json({ url: await openBillingPortal(db, deps.billing, ctx, origin) });
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
