// An account's deletion leaves nothing behind, here or at Stripe, and cannot be undone by a request
// that arrives while it is under way.

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../../src/connectors/stripe/stripe.ts';
import { deleteAccount, purgeDeletedAccounts } from '../../../src/core/account/delete-account.ts';
import { createMailer } from '../../../src/core/mail/mailer.ts';
import { deletedAccounts, users, workspaces } from '../../../src/db/schema.ts';
import { FIXTURE_SECRET_KEY, type StripeFixture, startStripeServer } from '../../fixtures/stripe-server.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { personalContext } from '../../helpers/context.ts';
import { embeddedOnly } from '../../helpers/databases.ts';

const logger = pino({ level: 'silent' });

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `account deletion on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let stripe: StripeFixture;
      let outboxDir: string;
      const billing = (url: string) => ({
        stripe: stripeClient(FIXTURE_SECRET_KEY, url),
        webhookSecret: stripe.webhookSecret,
        prices: stripe.prices,
      });
      beforeAll(async () => {
        stripe = await startStripeServer();
        outboxDir = mkdtempSync(join(tmpdir(), 'dw-outbox-'));
      });
      const api = apiSuite(backend, () => ({ billing: billing(stripe.url), outboxDir }));
      const { call, tag } = api;
      let offline: ReturnType<typeof testApp>;
      const callOffline = apiCaller({ request: (path, init) => offline.request(path, init) });

      const signIn = async (name: string) => {
        const user = await api.mint(name, { email: `${name}@${name}-${tag}.com` });
        expect((await call('/auth/verify', { method: 'POST', token: user.idToken })).status).toBe(200);
        return user;
      };
      const row = async (uid: string) => (await api.db.select().from(users).where(eq(users.id, uid)))[0];

      beforeAll(async () => {
        offline = testApp(api.database, {
          auth: api.auth,
          billing: billing('http://127.0.0.1:1'),
          outboxDir,
        });
      });
      afterAll(async () => {
        await stripe?.close();
        if (outboxDir) rmSync(outboxDir, { recursive: true, force: true });
      });

      it('regression: a request between the rows and the sign-in account cannot create the account again', async () => {
        const eve = await signIn('eve');
        let checked = false;
        const { actor } = personalContext(eve.uid, { tier: 'free', email: null });
        await deleteAccount(api.db, actor, {
          billing: undefined,
          outboxDir: undefined,
          // The rows are gone; the Firebase account is not yet (its deletion is this step).
          deleteSignIn: async () => {
            await expectError(
              await call('/auth/user', { token: eve.idToken }),
              401,
              'This account has been deleted',
              'ACCOUNT_DELETED',
            );
            await expectError(
              await call('/auth/verify', { method: 'POST', token: eve.idToken }),
              401,
              'This account has been deleted',
            );
            checked = true;
          },
        });
        expect(checked).toBe(true);
        expect(await row(eve.uid)).toBeUndefined();
      });

      it('purges the tombstones a stopped process left behind, after a day', async () => {
        await api.db.insert(deletedAccounts).values([
          { uid: `old-${tag}`, deletedAt: new Date(Date.now() - 2 * 86_400_000) },
          { uid: `new-${tag}`, deletedAt: new Date() },
        ]);
        expect(await purgeDeletedAccounts(api.db)).toBe(1);
        const left = await api.db.select().from(deletedAccounts);
        expect(left.map((r) => r.uid)).toContain(`new-${tag}`);
        expect(left.map((r) => r.uid)).not.toContain(`old-${tag}`);
      });

      it("regression: deletion removes the Stripe customer and the account's e-mails in the outbox", async () => {
        const fay = await signIn('fay');
        const customer = `cus_${tag.replace(/\W/g, '')}`;
        stripe.customers.set(customer, { id: customer, object: 'customer' });
        await api.db.update(workspaces).set({ stripeCustomerId: customer }).where(eq(workspaces.id, fay.uid));
        const mailer = createMailer({ from: 'DangleWatch <alerts@dw.test>', outboxDir, logger });
        await mailer.send({
          to: `fay@fay-${tag}.com`,
          subject: 'Alert for fay',
          text: 'x',
          html: '<p>x</p>',
        });
        await mailer.send({
          to: `gil@gil-${tag}.com`,
          subject: 'Alert for gil',
          text: 'y',
          html: '<p>y</p>',
        });
        expect(readdirSync(outboxDir)).toHaveLength(2);

        // Stripe away: nothing is deleted, and the user is told to try again.
        await expectError(
          await callOffline('/api/auth/account', { method: 'DELETE', token: fay.idToken }),
          502,
          'Stripe could not be reached to delete your billing details; please try again',
        );
        expect(await row(fay.uid)).toBeDefined();

        expect((await call('/api/auth/account', { method: 'DELETE', token: fay.idToken })).status).toBe(204);
        expect(stripe.customers.has(customer)).toBe(false);
        expect(
          stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/customers/${customer}`),
        ).toBe(true);
        const left = readdirSync(outboxDir);
        expect(left).toHaveLength(1);
        expect(existsSync(join(outboxDir, left[0] as string))).toBe(true);
        expect(await row(fay.uid)).toBeUndefined();
      });

      it('settles the billing of a team that goes with the account: a renewing subscription first, then its customer', async () => {
        const hal = await signIn('hal');
        const made = await call('/api/workspaces', {
          method: 'POST',
          token: hal.idToken,
          body: { name: 'Hal Labs' },
        });
        const team = ((await made.json()) as { workspace: { id: string } }).workspace.id;
        const customer = `cus_team_${tag.replace(/\W/g, '')}`;
        stripe.customers.set(customer, { id: customer, object: 'customer' });
        await api.db
          .update(workspaces)
          .set({
            tier: 'solo',
            stripeCustomerId: customer,
            stripeSubscriptionId: 'sub_hal',
            subscriptionStatus: 'active',
          })
          .where(eq(workspaces.id, team));
        await expectError(
          await call('/api/auth/account', { method: 'DELETE', token: hal.idToken }),
          409,
          'Please cancel the subscription of Hal Labs first',
          'SUBSCRIPTION_ACTIVE',
        );
        expect(await row(hal.uid)).toBeDefined();
        await api.db.update(workspaces).set({ cancelAtPeriodEnd: true }).where(eq(workspaces.id, team));
        expect((await call('/api/auth/account', { method: 'DELETE', token: hal.idToken })).status).toBe(204);
        expect(stripe.customers.has(customer)).toBe(false);
        expect(await api.db.select().from(workspaces).where(eq(workspaces.id, team))).toEqual([]);
      });
    },
  );
}
