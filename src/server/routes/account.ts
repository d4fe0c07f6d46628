import { Hono } from 'hono';
import { deleteAccount } from '../../core/account/delete-account.ts';
import { exportAccount, exportFileName } from '../../core/account/export.ts';
import type { Billing } from '../../core/billing/stripe.ts';
import { jsonObjectStream } from '../../core/json-stream.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import type { Db } from '../../db/client.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { tellOwnersOfDisabledConnections } from '../disabled-connections.ts';
import { sessionActor } from '../workspace-scope.ts';

interface AccountDeps {
  billing?: Billing;
  now: () => Date;
  /** Where alert e-mails are written without SMTP: a deleted account's are removed from it. */
  outboxDir?: string;
  /** Tells the owners of teams the account leaves which of the connections it answered for were disabled. */
  mailer?: Mailer;
  publicUrl?: string;
}

/** The account's own data: export and deletion (cancelling is in routes/billing.ts). */
export function accountRoutes(db: Db, auth: AuthDeps | undefined, deps: AccountDeps) {
  // Per route, not .use(): this router is mounted on /api/auth, beside /api/auth/user.
  const authed = requireAuth(auth);
  return new Hono<AuthedEnv>()
    .get('/export', authed, async (c) => {
      const now = deps.now();
      const members = await exportAccount(db, await sessionActor(db, c), now);
      c.header('Content-Disposition', `attachment; filename="${exportFileName(now)}"`);
      c.header('Cache-Control', 'no-store');
      c.header('Content-Type', 'application/json; charset=UTF-8');
      return c.body(jsonObjectStream(members));
    })
    .delete('/account', authed, async (c) => {
      const actor = await sessionActor(db, c);
      const { disabledConnections } = await deleteAccount(db, actor, {
        billing: deps.billing,
        outboxDir: deps.outboxDir,
        deleteSignIn: async (uid) => {
          await auth?.verifier.deleteUser(uid);
        },
      });
      await tellOwnersOfDisabledConnections(c, db, deps, disabledConnections);
      c.get('logger').info({ uid: actor.userId }, 'account deleted');
      return c.body(null, 204);
    });
}
