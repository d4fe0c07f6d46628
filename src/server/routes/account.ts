import { Hono } from 'hono';
import { deleteAccountRows, forgetDeletion } from '../../core/account/delete-account.ts';
import { exportAccount, exportFileName } from '../../core/account/export.ts';
import { audit } from '../../core/audit.ts';
import { assertBillingSettled, deleteStripeCustomers } from '../../core/billing/closing.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { jsonObjectStream } from '../../core/json-stream.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { deleteOutboxMail } from '../../core/mail/outbox.ts';
import { currentUser } from '../../core/users/users.ts';
import { assertTeamsHandedOver, teamsOfLeavingAccount } from '../../core/workspaces/members.ts';
import type { Db } from '../../db/client.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { tellOwnersOfDisabledWebhooks } from '../disabled-webhooks.ts';

interface AccountDeps {
  billing?: Billing;
  now: () => Date;
  /** Where alert e-mails are written without SMTP: a deleted account's are removed from it. */
  outboxDir?: string;
  /** Tells the owners of teams the account leaves which of its webhooks were disabled. */
  mailer?: Mailer;
  publicUrl?: string;
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
      // The personal workspace, and the teams the account is alone in, go with it.
      const leaving = [user.id, ...(await teamsOfLeavingAccount(db, user.id)).alone];
      await assertBillingSettled(db, leaving);
      // A team others work in is handed over first.
      await assertTeamsHandedOver(db, user.id);
      await deleteStripeCustomers(db, deps.billing, leaving);
      const { disabledWebhooks } = await deleteAccountRows(db, user.id);
      if (user.email && deps.outboxDir) await deleteOutboxMail(deps.outboxDir, user.email);
      await tellOwnersOfDisabledWebhooks(c, db, deps, disabledWebhooks);
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
