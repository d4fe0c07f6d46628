import { Hono } from 'hono';
import { deleteAccountRows, forgetDeletion } from '../../core/account/delete-account.ts';
import { exportAccount, exportFileName } from '../../core/account/export.ts';
import { audit } from '../../core/audit.ts';
import { deleteStripeCustomer } from '../../core/billing/info.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { jsonObjectStream } from '../../core/json-stream.ts';
import { deleteOutboxMail } from '../../core/mail/outbox.ts';
import { currentUser } from '../../core/users/users.ts';
import { assertTeamsHandedOver } from '../../core/workspaces/members.ts';
import type { Db } from '../../db/client.ts';
import { type SubscriptionStatus, subscriptionSettled } from '../../model/billing.ts';
import { getPlanForTier } from '../../model/profile.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';

interface AccountDeps {
  billing?: Billing;
  now: () => Date;
  /** Where alert e-mails are written without SMTP: a deleted account's are removed from it. */
  outboxDir?: string;
}

/** The account's own data: export and deletion (cancelling is in routes/billing.ts). */
export function accountRoutes(db: Db, auth: AuthDeps | undefined, deps: AccountDeps) {
  // Per route, not .use(): this router is mounted on /api/auth, beside /api/auth/user.
  const authed = requireAuth(auth);
  return new Hono<AuthedEnv>()
    .get('/export', authed, async (c) => {
      const user = await currentUser(db, c.var);
      const now = deps.now();
      await audit(db, { userId: user.id, action: 'data.exported', ip: c.get('clientAddress') });
      c.header('Content-Disposition', `attachment; filename="${exportFileName(now)}"`);
      c.header('Cache-Control', 'no-store');
      c.header('Content-Type', 'application/json; charset=UTF-8');
      return c.body(jsonObjectStream(await exportAccount(db, user.id, now)));
    })
    .delete('/account', authed, async (c) => {
      const user = await currentUser(db, c.var);
      const subscription = {
        plan: { price: getPlanForTier(user.tier).priceCents },
        subscriptionStatus: user.subscriptionStatus as SubscriptionStatus,
        cancelAtPeriodEnd: user.cancelAtPeriodEnd,
      };
      // A paid subscription is cancelled first, so deleting never leaves one billing.
      if (!subscriptionSettled(subscription)) {
        throw new ApiError(409, 'SUBSCRIPTION_ACTIVE', 'Please cancel your subscription first');
      }
      // A team others work in is handed over first; a team the account is alone in goes with it.
      await assertTeamsHandedOver(db, user.id);
      // Stripe's customer first (its payment methods and invoices): if Stripe fails, nothing is gone yet.
      if (user.stripeCustomerId && deps.billing) {
        await deleteStripeCustomer(deps.billing, user.stripeCustomerId);
      }
      await deleteAccountRows(db, user.id);
      if (user.email && deps.outboxDir) await deleteOutboxMail(deps.outboxDir, user.email);
      try {
        await auth?.verifier.deleteUser(user.id);
      } finally {
        // The tombstone guarded the time between the rows and the sign-in account. Once Firebase
        // has no such user, its tokens fail on their own; if Firebase failed, lifting it lets the
        // user sign in again and ask again.
        await forgetDeletion(db, user.id);
      }
      c.get('logger').info({ uid: user.id }, 'account deleted');
      return c.body(null, 204);
    });
}
