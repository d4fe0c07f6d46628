import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../../src/connectors/stripe/stripe.ts';
import type { Billing } from '../../../src/core/billing/stripe.ts';
import type { Database } from '../../../src/db/client.ts';
import { stripeEvents, users, workspaces } from '../../../src/db/schema.ts';
import { FIXTURE_SECRET_KEY, type StripeFixture, startStripeServer } from '../../fixtures/stripe-server.ts';
import { expectError } from '../../helpers/api.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';

type Json = Record<string, unknown>;
type Expected = { tier: string; subscriptionStatus: string; cancelAtPeriodEnd: boolean };

/**
 * One subscription's life, in Stripe's order: what changes at Stripe at each step, the event
 * Stripe sends for it, and the plan the account must have once Stripe is in that state.
 */
const LIFE: {
  name: string;
  event: string;
  change: (subscription: Json, prices: StripeFixture['prices']) => void;
  invoice?: 'open' | 'paid';
  expected: Expected;
}[] = [
  {
    name: 'created',
    event: 'customer.subscription.created',
    change: () => {},
    expected: { tier: 'intro', subscriptionStatus: 'active', cancelAtPeriodEnd: false },
  },
  {
    name: 'updated active (to Solo)',
    event: 'customer.subscription.updated',
    change: (subscription, prices) => {
      const items = subscription.items as { data: { price: { id: string } }[] };
      (items.data[0] as { price: { id: string } }).price.id = prices.solo;
    },
    expected: { tier: 'solo', subscriptionStatus: 'active', cancelAtPeriodEnd: false },
  },
  {
    name: 'updated past_due',
    event: 'customer.subscription.updated',
    change: (subscription) => {
      subscription.status = 'past_due';
    },
    expected: { tier: 'solo', subscriptionStatus: 'past_due', cancelAtPeriodEnd: false },
  },
  {
    name: 'invoice payment failed',
    event: 'invoice.payment_failed',
    change: (subscription) => {
      subscription.status = 'past_due';
    },
    invoice: 'open',
    expected: { tier: 'solo', subscriptionStatus: 'past_due', cancelAtPeriodEnd: false },
  },
  {
    name: 'invoice paid',
    event: 'invoice.paid',
    change: (subscription) => {
      subscription.status = 'active';
    },
    invoice: 'paid',
    expected: { tier: 'solo', subscriptionStatus: 'active', cancelAtPeriodEnd: false },
  },
  {
    name: 'updated cancel_at_period_end',
    event: 'customer.subscription.updated',
    change: (subscription) => {
      subscription.cancel_at_period_end = true;
    },
    expected: { tier: 'solo', subscriptionStatus: 'active', cancelAtPeriodEnd: true },
  },
  {
    name: 'deleted',
    event: 'customer.subscription.deleted',
    change: (subscription) => {
      subscription.status = 'canceled';
    },
    expected: { tier: 'free', subscriptionStatus: 'canceled', cancelAtPeriodEnd: false },
  },
];

const PAIRS = LIFE.flatMap((_, i) => LIFE.slice(i + 1).map((__, k) => [i, i + 1 + k] as const));
const DAY_SECONDS = 86_400;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `Stripe events in any order on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let stripe: StripeFixture;
      let app: ReturnType<typeof testApp>;

      const deliver = (event: { payload: string; signature: string }, target = app) =>
        target.request('/api/billing/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
          body: event.payload,
        });

      /** An account with a Stripe customer and a new Intro subscription, as checkout leaves it. */
      const subscriber = async () => {
        const userId = `order-${randomBytes(6).toString('hex')}`;
        const customer = `cus_${randomBytes(8).toString('hex')}`;
        await database.db.insert(users).values({ id: userId, provider: 'google' });
        await database.db
          .update(workspaces)
          .set({ stripeCustomerId: customer })
          .where(eq(workspaces.id, userId));
        const subscription = stripe.subscribe(customer, stripe.prices.intro, 'active', {
          workspaceId: userId,
        });
        return { userId, customer, subscription };
      };

      /** Moves the subscription at Stripe through a step, and returns the event Stripe sends for it. */
      const advance = (account: Awaited<ReturnType<typeof subscriber>>, step: (typeof LIFE)[number]) => {
        step.change(account.subscription, stripe.prices);
        const object = step.invoice
          ? stripe.addInvoice(account.customer, {
              amount: 9900,
              status: step.invoice,
              subscription: account.subscription.id as string,
            })
          : structuredClone(account.subscription);
        return stripe.signedEvent(step.event, object);
      };

      const plan = async (userId: string): Promise<Expected> => {
        const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, userId));
        if (!row) throw new Error('no row');
        return {
          tier: row.tier,
          subscriptionStatus: row.subscriptionStatus,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
        };
      };

      beforeAll(async () => {
        database = await backend.open();
        stripe = await startStripeServer();
        const billing: Billing = {
          stripe: stripeClient(FIXTURE_SECRET_KEY, stripe.url),
          webhookSecret: stripe.webhookSecret,
          prices: stripe.prices,
        };
        app = testApp(database, { billing, logger: pino({ level: 'silent' }) });
      });
      afterAll(async () => {
        await stripe?.close();
        await database?.close();
      });

      for (const [first, second] of PAIRS) {
        const a = LIFE[first] as (typeof LIFE)[number];
        const b = LIFE[second] as (typeof LIFE)[number];
        it(`regression: '${a.name}' then '${b.name}', delivered in Stripe's order`, async () => {
          const account = await subscriber();
          for (const step of LIFE.slice(0, first)) step.change(account.subscription, stripe.prices);
          expect((await deliver(advance(account, a))).status).toBe(200);
          expect(await plan(account.userId)).toEqual(a.expected);
          for (const step of LIFE.slice(first + 1, second)) step.change(account.subscription, stripe.prices);
          expect((await deliver(advance(account, b))).status).toBe(200);
          expect(await plan(account.userId)).toEqual(b.expected);
        });

        it(`regression: '${b.name}' delivered before the older '${a.name}'`, async () => {
          const account = await subscriber();
          for (const step of LIFE.slice(0, first)) step.change(account.subscription, stripe.prices);
          const older = advance(account, a);
          for (const step of LIFE.slice(first + 1, second)) step.change(account.subscription, stripe.prices);
          const newer = advance(account, b);
          expect((await deliver(newer)).status).toBe(200);
          expect(await plan(account.userId)).toEqual(b.expected);
          expect((await deliver(older)).status).toBe(200);
          expect(await plan(account.userId)).toEqual(b.expected);
        });
      }

      it('regression: an active update retried three days after the deletion gives nothing back', async () => {
        const account = await subscriber();
        const events = LIFE.map((step) => advance(account, step));
        // The 'updated active' delivery failed at the time; Stripe retries it after everything else.
        const [created, stale, ...rest] = events;
        for (const event of [created, ...rest]) expect((await deliver(event as never)).status).toBe(200);
        expect(await plan(account.userId)).toEqual({
          tier: 'free',
          subscriptionStatus: 'canceled',
          cancelAtPeriodEnd: false,
        });
        const retried = stripe.signedEvent(
          'customer.subscription.updated',
          { ...structuredClone(account.subscription), status: 'active', cancel_at_period_end: false },
          { created: Math.floor(Date.now() / 1000) - 3 * DAY_SECONDS },
        );
        for (const event of [stale, retried]) {
          expect((await deliver(event as never)).status).toBe(200);
          expect(await plan(account.userId)).toMatchObject({ tier: 'free', subscriptionStatus: 'canceled' });
        }
        // The same delivery again is recognised as a replay.
        const replay = await deliver(retried);
        expect(await replay.json()).toEqual({ received: true, duplicate: true });
      });

      it('an unpaid subscription (Stripe gave up on the card) is back on Free, shown as past due', async () => {
        const account = await subscriber();
        await deliver(advance(account, LIFE[0] as (typeof LIFE)[number]));
        expect((await plan(account.userId)).tier).toBe('intro');
        account.subscription.status = 'unpaid';
        await deliver(
          stripe.signedEvent('customer.subscription.updated', structuredClone(account.subscription)),
        );
        expect(await plan(account.userId)).toEqual({
          tier: 'free',
          subscriptionStatus: 'past_due',
          cancelAtPeriodEnd: false,
        });
        // Paid again at last: the plan comes back.
        account.subscription.status = 'active';
        const invoice = stripe.addInvoice(account.customer, {
          amount: 499,
          status: 'paid',
          subscription: account.subscription.id as string,
        });
        await deliver(stripe.signedEvent('invoice.paid', invoice));
        expect(await plan(account.userId)).toMatchObject({ tier: 'intro', subscriptionStatus: 'active' });
      });

      it('refuses an event with 503 while Stripe cannot be read, and applies it when delivered again', async () => {
        const unreachable = testApp(database, {
          billing: {
            stripe: stripeClient(FIXTURE_SECRET_KEY, 'http://127.0.0.1:1'),
            webhookSecret: stripe.webhookSecret,
            prices: stripe.prices,
          },
          logger: pino({ level: 'silent' }),
        });
        const account = await subscriber();
        const event = advance(account, LIFE[0] as (typeof LIFE)[number]);
        await expectError(
          await deliver(event, unreachable),
          503,
          'Stripe could not be reached to read the subscription; deliver the event again later',
        );
        expect(await plan(account.userId)).toMatchObject({ tier: 'free', subscriptionStatus: 'none' });
        expect(await database.db.select().from(stripeEvents).where(eq(stripeEvents.id, event.id))).toEqual(
          [],
        );
        const again = await deliver(event);
        expect(await again.json()).toEqual({ received: true, duplicate: false });
        expect((await plan(account.userId)).tier).toBe('intro');
      });
    },
  );
}
