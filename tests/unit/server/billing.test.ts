import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../../src/connectors/stripe/stripe.ts';
import type { Billing } from '../../../src/core/billing/stripe.ts';
import { auditLog, workspaceMembers, workspaces } from '../../../src/db/schema.ts';
import type { BillingInfo } from '../../../src/model/billing.ts';
import { WORKSPACE_MESSAGES } from '../../../src/model/workspaces.ts';
import { FIXTURE_SECRET_KEY, type StripeFixture, startStripeServer } from '../../fixtures/stripe-server.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const ORIGIN = 'https://app.danglewatch.test';
const returnUrls = {
  successUrl: `${ORIGIN}/dashboard/settings?tab=billing&success=true`,
  cancelUrl: `${ORIGIN}/dashboard/settings?tab=billing&canceled=true`,
};

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `billing on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let stripe: StripeFixture;
      let billing: Billing;
      beforeAll(async () => {
        stripe = await startStripeServer();
        billing = {
          stripe: stripeClient(FIXTURE_SECRET_KEY, stripe.url),
          webhookSecret: stripe.webhookSecret,
          prices: stripe.prices,
        };
      });
      const api = apiSuite(backend, () => ({ billing, publicUrl: ORIGIN }));
      const { call, tag } = api;
      let unbilled: ReturnType<typeof testApp>;
      const callUnbilled = apiCaller({ request: (path, init) => unbilled.request(path, init) });
      let ann: MintedUser;
      let bob: MintedUser;

      const info = async (user: MintedUser) => {
        const res = await call('/api/billing/info', { token: user.idToken });
        expect(res.status).toBe(200);
        return (await res.json()) as BillingInfo;
      };
      const row = async (user: MintedUser) => {
        const [found] = await api.db.select().from(workspaces).where(eq(workspaces.id, user.uid));
        if (!found) throw new Error('no row');
        return found;
      };
      const deliver = (event: { payload: string; signature: string }) =>
        api.app.request('/api/billing/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
          body: event.payload,
        });

      beforeAll(async () => {
        unbilled = testApp(api.database, { auth: api.auth, publicUrl: ORIGIN });
        ann = await api.mint('ann', { email: `ann@billing-${tag}.com`, name: 'Ann' });
        bob = await api.mint('bob', { email: `bob@billing-${tag}.com` });
      });
      afterAll(async () => {
        await stripe?.close();
      });

      it('needs a signed-in caller for every billing call but the webhook', async () => {
        for (const [path, method] of [
          ['/api/billing/info', 'GET'],
          ['/auth/billing', 'GET'],
          ['/api/billing/create-checkout-session', 'POST'],
          ['/api/billing/create-portal-session', 'POST'],
          ['/api/auth/billing/cancel', 'POST'],
        ] as const) {
          await expectError(await call(path, { method }), 401, 'Authentication required');
        }
      });

      it('describes a new account: Free, no subscription, no invoices, the plans for sale', async () => {
        const body = await info(ann);
        expect(body).toMatchObject({
          plan: { id: 'free', name: 'Free', price: 0, interval: 'month' },
          subscriptionStatus: 'none',
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          usage: { domainsMonitored: 0, scansUsed: 0, scansThisMonth: 0 },
          invoices: [],
          billing: { configured: true, purchasable: ['intro'], serverPlan: null },
        });
        const legacy = await call('/auth/billing', { token: ann.idToken });
        expect(await legacy.json()).toEqual(body);
      });

      it('says billing is not configured without Stripe, and checkout explains why', async () => {
        const res = await callUnbilled('/api/billing/info', { token: ann.idToken });
        expect(((await res.json()) as BillingInfo).billing).toEqual({
          configured: false,
          purchasable: [],
          serverPlan: null,
        });
        await expectError(
          await callUnbilled('/api/billing/create-checkout-session', {
            method: 'POST',
            token: ann.idToken,
            body: { planId: 'intro', ...returnUrls },
          }),
          503,
          'Billing is not configured on this server',
          'BILLING_NOT_CONFIGURED',
        );
        await expectError(
          await callUnbilled('/api/billing/webhook', { method: 'POST', body: {} }),
          503,
          'Billing is not configured on this server',
        );
      });

      it.each([
        [
          { planId: 'enterprise', ...returnUrls },
          "The plan must name a paid plan; none is called 'enterprise'",
        ],
        [{ planId: 'free', ...returnUrls }, "The plan must name a paid plan; none is called 'free'"],
        [
          {
            planId: 'intro',
            ...returnUrls,
            successUrl: 'https://evil.example/dashboard/settings?tab=billing&success=true',
          },
          `The success URL must be ${returnUrls.successUrl}`,
        ],
        [
          { planId: 'intro', ...returnUrls, cancelUrl: `${ORIGIN}/elsewhere` },
          `The cancel URL must be ${returnUrls.cancelUrl}`,
        ],
        [
          { planId: 'intro', successUrl: 'not a url', cancelUrl: returnUrls.cancelUrl },
          'The success URL must be a URL',
        ],
        [{ planId: 'intro', ...returnUrls, tier: 'pro-solo' }, 'The request does not take “tier”'],
      ])('refuses the checkout request %j', async (body, message) => {
        const res = await call('/api/billing/create-checkout-session', {
          method: 'POST',
          token: ann.idToken,
          body,
        });
        await expectError(res, 400, message);
      });

      it('never sells a roadmap plan, even one this server has a price for', async () => {
        expect(stripe.prices.solo).toBeTruthy();
        for (const [planId, message] of [
          ['intro-plus', 'Intro Plus is on the roadmap (announced for Q4 2025) and not for sale yet'],
          ['solo', 'Solo is on the roadmap (announced for Q2 2026) and not for sale yet'],
        ]) {
          await expectError(
            await call('/api/billing/create-checkout-session', {
              method: 'POST',
              token: ann.idToken,
              body: { planId, ...returnUrls },
            }),
            409,
            message,
            'PLAN_NOT_FOR_SALE',
          );
        }
      });

      it('opens a Stripe checkout for the plan, as the customer it makes once', async () => {
        const res = await call('/api/billing/create-checkout-session', {
          method: 'POST',
          token: ann.idToken,
          body: { planId: 'intro', ...returnUrls },
        });
        expect(res.status).toBe(200);
        const { url } = (await res.json()) as { url: string };
        expect(url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_`));
        const customer = (await row(ann)).stripeCustomerId;
        expect(customer).toMatch(/^cus_/);
        expect(stripe.customers.get(customer as string)).toMatchObject({
          email: `ann@billing-${tag}.com`,
          name: 'Ann',
          metadata: { workspaceId: ann.uid },
        });
        const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)?.body;
        expect(session).toMatchObject({
          mode: 'subscription',
          customer,
          client_reference_id: ann.uid,
          line_items: [{ price: stripe.prices.intro, quantity: '1' }],
          subscription_data: { metadata: { workspaceId: ann.uid } },
          success_url: returnUrls.successUrl,
          cancel_url: returnUrls.cancelUrl,
        });
        await call('/api/billing/create-checkout-session', {
          method: 'POST',
          token: ann.idToken,
          body: { planId: 'intro', ...returnUrls },
        });
        expect(stripe.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
        // Opening checkout changes no plan: only Stripe's word does.
        expect((await row(ann)).tier).toBe('free');
      });

      it('refuses a webhook without a signature or with a forged one, changing nothing', async () => {
        const customer = (await row(ann)).stripeCustomerId as string;
        const subscription = stripe.subscribe(customer, stripe.prices['pro-solo']);
        const event = stripe.signedEvent('customer.subscription.created', subscription);
        const missing = await api.app.request('/api/billing/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: event.payload,
        });
        await expectError(missing, 400, 'The Stripe-Signature header is missing', 'INVALID_SIGNATURE');
        const forged = event.signature.replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`);
        await expectError(
          await deliver({ payload: event.payload, signature: forged }),
          400,
          'The Stripe signature does not match this event',
        );
        const tampered = event.payload.replace(stripe.prices['pro-solo'], stripe.prices.solo);
        await expectError(
          await deliver({ payload: tampered, signature: event.signature }),
          400,
          'The Stripe signature does not match this event',
        );
        expect((await row(ann)).tier).toBe('free');
        stripe.subscriptions.delete(subscription.id as string);
      });

      it('applies checkout completion once, however often Stripe delivers it', async () => {
        const customer = (await row(ann)).stripeCustomerId as string;
        const subscription = stripe.subscribe(customer, stripe.prices.intro, 'active', {
          workspaceId: ann.uid,
        });
        const event = stripe.signedEvent('checkout.session.completed', {
          id: 'cs_done',
          object: 'checkout.session',
          client_reference_id: ann.uid,
          customer,
          subscription: subscription.id,
          status: 'complete',
        });
        const first = await deliver(event);
        expect(await first.json()).toEqual({ received: true, duplicate: false });
        const replay = await deliver(event);
        expect(await replay.json()).toEqual({ received: true, duplicate: true });
        const after = await row(ann);
        expect(after).toMatchObject({
          tier: 'intro',
          subscriptionStatus: 'active',
          stripeSubscriptionId: subscription.id,
          cancelAtPeriodEnd: false,
        });
        expect(after.currentPeriodEnd?.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
        const changes = await api.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.userId, ann.uid), eq(auditLog.action, 'plan.changed')));
        expect(changes.map((c) => c.detail)).toEqual([
          { from: 'free', to: 'intro', source: 'stripe', subscription: subscription.id },
        ]);
        const body = await info(ann);
        expect(body.plan).toEqual({ id: 'intro', name: 'Intro', price: 4.99, interval: 'month' });
        expect(body.subscriptionStatus).toBe('active');
      });

      it('refuses a second checkout while subscribed', async () => {
        await expectError(
          await call('/api/billing/create-checkout-session', {
            method: 'POST',
            token: ann.idToken,
            body: { planId: 'intro', ...returnUrls },
          }),
          409,
          'You are subscribed to Intro: change plans in the billing portal',
        );
      });

      it('changes the tier on customer.subscription.updated', async () => {
        const current = (await row(ann)).stripeSubscriptionId as string;
        const subscription = stripe.subscriptions.get(current) as Record<string, never>;
        const items = subscription.items as { data: { price: { id: string } }[] };
        (items.data[0] as { price: { id: string } }).price.id = stripe.prices.solo;
        const res = await deliver(stripe.signedEvent('customer.subscription.updated', subscription));
        expect(res.status).toBe(200);
        expect((await row(ann)).tier).toBe('solo');
        // The quota follows the plan: Solo's 100 domains.
        const user = await call('/auth/user', { token: ann.idToken });
        expect(((await user.json()) as { quota: { maxDomains: number } }).quota.maxDomains).toBe(100);
      });

      it('shows past due after invoice.payment_failed, active again after invoice.paid', async () => {
        const current = (await row(ann)).stripeSubscriptionId as string;
        const customer = (await row(ann)).stripeCustomerId as string;
        const subscription = stripe.subscriptions.get(current) as Record<string, unknown>;
        const invoice = stripe.addInvoice(customer, { amount: 9900, status: 'open', subscription: current });
        // Stripe marks the subscription past due as the renewal fails, then active once it is paid.
        subscription.status = 'past_due';
        await deliver(stripe.signedEvent('invoice.payment_failed', invoice));
        expect((await info(ann)).subscriptionStatus).toBe('past_due');
        expect((await row(ann)).tier).toBe('solo');
        subscription.status = 'active';
        await deliver(stripe.signedEvent('invoice.paid', { ...invoice, status: 'paid' }));
        expect((await info(ann)).subscriptionStatus).toBe('active');
      });

      it('lists the five newest invoices, amounts in cents, with their links', async () => {
        const customer = (await row(ann)).stripeCustomerId as string;
        for (const [amount, status] of [
          [499, 'paid'],
          [499, 'void'],
          [9900, 'paid'],
          [9900, 'paid'],
          [9900, 'paid'],
        ] as const) {
          stripe.addInvoice(customer, { amount, status });
        }
        const { invoices } = await info(ann);
        expect(invoices).toHaveLength(5);
        const dates = invoices.map((i) => i.date);
        expect([...dates].sort().reverse()).toEqual(dates);
        expect(invoices.map((i) => i.status)).toEqual(['paid', 'paid', 'paid', 'void', 'paid']);
        expect(invoices[0]).toMatchObject({ amount: 9900, downloadUrl: expect.stringMatching(/\.pdf$/) });
        expect((await info(bob)).invoices).toEqual([]);
      });

      it('opens the billing portal for a customer only', async () => {
        await expectError(
          await call('/api/billing/create-portal-session', { method: 'POST', token: bob.idToken }),
          409,
          'You have no billing account yet: choose a plan first',
        );
        const res = await call('/api/billing/create-portal-session', { method: 'POST', token: ann.idToken });
        expect(((await res.json()) as { url: string }).url).toMatch(new RegExp(`^${stripe.url}/portal/bps_`));
        const portal = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)?.body;
        expect(portal).toEqual({
          customer: (await row(ann)).stripeCustomerId,
          return_url: `${ORIGIN}/dashboard/settings?tab=billing`,
        });
      });

      it('cancels at the end of the period, keeping the plan until then', async () => {
        await expectError(
          await call('/api/auth/billing/cancel', { method: 'POST', token: bob.idToken }),
          409,
          'You have no subscription to cancel',
        );
        const res = await call('/api/auth/billing/cancel', { method: 'POST', token: ann.idToken });
        expect(res.status).toBe(200);
        const body = (await res.json()) as BillingInfo;
        expect(body).toMatchObject({
          cancelAtPeriodEnd: true,
          subscriptionStatus: 'active',
          plan: { id: 'solo' },
        });
        const current = (await row(ann)).stripeSubscriptionId as string;
        expect(stripe.subscriptions.get(current)?.cancel_at_period_end).toBe(true);
      });

      it('returns to Free on customer.subscription.deleted, ignoring an older subscription ending', async () => {
        const customer = (await row(ann)).stripeCustomerId as string;
        const old = stripe.subscribe(customer, stripe.prices.intro, 'canceled');
        await deliver(stripe.signedEvent('customer.subscription.deleted', old));
        expect((await row(ann)).tier).toBe('solo');
        const current = stripe.subscriptions.get((await row(ann)).stripeSubscriptionId as string) ?? {};
        current.status = 'canceled';
        await deliver(stripe.signedEvent('customer.subscription.deleted', current));
        expect(await row(ann)).toMatchObject({
          tier: 'free',
          subscriptionStatus: 'canceled',
          stripeSubscriptionId: null,
          currentPeriodEnd: null,
        });
      });

      it('grants nothing for an unpaid (incomplete) subscription', async () => {
        const res = await call('/api/billing/create-checkout-session', {
          method: 'POST',
          token: bob.idToken,
          body: { planId: 'intro', ...returnUrls },
        });
        expect(res.status).toBe(200);
        const customer = (await row(bob)).stripeCustomerId as string;
        const pending = stripe.subscribe(customer, stripe.prices['pro-solo'], 'incomplete');
        await deliver(stripe.signedEvent('customer.subscription.created', pending));
        expect((await row(bob)).tier).toBe('free');
        // Nothing was paid, so checking out again is allowed.
        const retry = await call('/api/billing/create-checkout-session', {
          method: 'POST',
          token: bob.idToken,
          body: { planId: 'intro', ...returnUrls },
        });
        expect(retry.status).toBe(200);
      });

      it('still applies a subscription made before plans moved onto workspaces (metadata userId)', async () => {
        const cleo = await api.signIn('cleo', { email: `cleo@billing-${tag}.com` });
        const customer = `cus_legacy_${tag}`;
        stripe.customers.set(customer, { id: customer, object: 'customer' });
        const legacy = stripe.subscribe(customer, stripe.prices.solo, 'active', { userId: cleo.uid });
        await deliver(stripe.signedEvent('customer.subscription.created', legacy));
        expect(await row(cleo)).toMatchObject({ tier: 'solo', stripeCustomerId: customer });
      });

      describe('a team workspace', () => {
        let team: string;
        let dee: MintedUser;
        const teamRow = async () => {
          const [found] = await api.db.select().from(workspaces).where(eq(workspaces.id, team));
          if (!found) throw new Error('no team');
          return found;
        };

        beforeAll(async () => {
          dee = await api.signIn('dee', { email: `dee@billing-${tag}.com` });
          const made = await call('/api/workspaces', {
            method: 'POST',
            token: dee.idToken,
            body: { name: 'Dee Co' },
          });
          team = ((await made.json()) as { workspace: { id: string } }).workspace.id;
          // Bob joins as an admin: he runs the team, its owner pays.
          await api.db.insert(workspaceMembers).values({ workspaceId: team, userId: bob.uid, role: 'admin' });
        });

        it('starts on Free, whatever its owner pays for their own workspace', async () => {
          const res = await call('/api/billing/info', { token: dee.idToken, workspace: team });
          expect(((await res.json()) as BillingInfo).plan.id).toBe('free');
        });

        it('is bought by its owner, as a Stripe customer of its own, and changes only its plan', async () => {
          const res = await call('/api/billing/create-checkout-session', {
            method: 'POST',
            token: dee.idToken,
            workspace: team,
            body: { planId: 'intro', ...returnUrls },
          });
          expect(res.status).toBe(200);
          const customer = (await teamRow()).stripeCustomerId as string;
          expect(customer).toMatch(/^cus_/);
          expect(customer).not.toBe((await row(dee)).stripeCustomerId);
          expect(stripe.customers.get(customer)).toMatchObject({
            email: `dee@billing-${tag}.com`,
            name: 'Dee Co',
            metadata: { workspaceId: team },
          });
          const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)?.body;
          expect(session).toMatchObject({
            client_reference_id: team,
            subscription_data: { metadata: { workspaceId: team } },
          });
          const subscription = stripe.subscribe(customer, stripe.prices.solo, 'active', {
            workspaceId: team,
          });
          await deliver(
            stripe.signedEvent('checkout.session.completed', {
              id: `cs_team_${tag}`,
              object: 'checkout.session',
              client_reference_id: team,
              customer,
              subscription: subscription.id,
              status: 'complete',
            }),
          );
          expect(await teamRow()).toMatchObject({ tier: 'solo', subscriptionStatus: 'active' });
          expect((await row(dee)).tier).toBe('free');
          const listed = await call('/api/workspaces', { token: bob.idToken });
          const { workspaces: seen } = (await listed.json()) as {
            workspaces: { id: string; plan: string }[];
          };
          expect(seen.find((w) => w.id === team)?.plan).toBe('solo');
          const [change] = await api.db
            .select()
            .from(auditLog)
            .where(and(eq(auditLog.workspaceId, team), eq(auditLog.action, 'plan.changed')));
          expect(change).toMatchObject({
            userId: dee.uid,
            detail: { from: 'free', to: 'solo', source: 'stripe' },
          });
        });

        it('shows every member its plan and usage, and only its owners the invoices', async () => {
          stripe.addInvoice((await teamRow()).stripeCustomerId as string, { amount: 9900, status: 'paid' });
          const owner = (await (
            await call('/api/billing/info', { token: dee.idToken, workspace: team })
          ).json()) as BillingInfo;
          const admin = (await (
            await call('/api/billing/info', { token: bob.idToken, workspace: team })
          ).json()) as BillingInfo;
          expect(owner.plan.id).toBe('solo');
          expect(owner.invoices).toHaveLength(1);
          expect(admin.plan.id).toBe('solo');
          expect(admin.invoices).toEqual([]);
        });

        it('refuses checkout, the portal and cancelling to anyone but an owner', async () => {
          for (const [path, body] of [
            ['/api/billing/create-checkout-session', { planId: 'intro', ...returnUrls }],
            ['/api/billing/create-portal-session', undefined],
            ['/api/auth/billing/cancel', undefined],
          ] as const) {
            await expectError(
              await call(path, { method: 'POST', token: bob.idToken, workspace: team, body }),
              403,
              WORKSPACE_MESSAGES.roleNeeded('workspace.billing'),
              'ROLE_REQUIRED',
            );
          }
          expect((await teamRow()).cancelAtPeriodEnd).toBe(false);
        });

        it("tells a subscribed team's owner to use the portal, naming the team", async () => {
          await expectError(
            await call('/api/billing/create-checkout-session', {
              method: 'POST',
              token: dee.idToken,
              workspace: team,
              body: { planId: 'intro', ...returnUrls },
            }),
            409,
            'Dee Co is subscribed to Solo: change plans in the billing portal',
          );
        });

        it('is not found for someone outside it, and its plan is not theirs', async () => {
          await expectError(
            await call('/api/billing/info', { token: ann.idToken, workspace: team }),
            404,
            WORKSPACE_MESSAGES.notFound,
          );
        });

        it('cannot be deleted while its subscription renews', async () => {
          await expectError(
            await call(`/api/workspaces/${team}`, { method: 'DELETE', token: dee.idToken }),
            409,
            'Please cancel the subscription of Dee Co first',
            'SUBSCRIPTION_ACTIVE',
          );
          expect((await teamRow()).tier).toBe('solo');
        });

        it('is cancelled by its owner at the end of the period', async () => {
          const res = await call('/api/auth/billing/cancel', {
            method: 'POST',
            token: dee.idToken,
            workspace: team,
          });
          expect(res.status).toBe(200);
          expect(((await res.json()) as BillingInfo).cancelAtPeriodEnd).toBe(true);
          expect(await teamRow()).toMatchObject({ tier: 'solo', cancelAtPeriodEnd: true });
        });

        it('is deleted by its owner once cancelled, and its Stripe customer with it', async () => {
          const customer = (await teamRow()).stripeCustomerId as string;
          const res = await call(`/api/workspaces/${team}`, { method: 'DELETE', token: dee.idToken });
          expect(res.status).toBe(204);
          expect(stripe.customers.has(customer)).toBe(false);
          expect(await api.db.select().from(workspaces).where(eq(workspaces.id, team))).toEqual([]);
        });
      });
    },
  );
}
