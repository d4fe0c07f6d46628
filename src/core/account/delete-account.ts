import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deletedAccounts, mailingListSignups, users } from '../../db/schema.ts';
import { CONNECTION_MESSAGES, memberName } from '../../model/connections.ts';
import type { Actor } from '../access.ts';
import { revokeKeysMadeBy } from '../api-keys/api-keys.ts';
import { assertBillingSettled, deleteStripeCustomers } from '../billing/closing.ts';
import type { Billing } from '../billing/stripe.ts';
import { type DisabledConnection, disableAnsweredBy } from '../connections/answerable.ts';
import { deleteOutboxMail } from '../mail/outbox.ts';
import { deleteWorkspaceRows } from '../members/delete-workspace.ts';
import { assertTeamsHandedOver, teamsOfLeavingAccount } from '../members/members.ts';
import { accountLock } from '../users/users.ts';

/**
 * Deletes the actor's account: refused while a subscription renews or a team others work in would
 * be left without an owner; then the Stripe customers of the workspaces that go with it, every row
 * (deleteAccountRows), the mail written for it to the outbox, and its sign-in account
 * (`deleteSignIn`). Answers the connections it answered for in teams that go on, now disabled, for
 * their owners to hear of.
 */
export async function deleteAccount(
  db: Db,
  actor: Actor,
  deps: {
    billing: Billing | undefined;
    outboxDir: string | undefined;
    deleteSignIn: (userId: string) => Promise<void>;
  },
): Promise<{ disabledConnections: DisabledConnection[] }> {
  const userId = actor.userId;
  // The personal workspace, and the teams the account is alone in, go with it.
  const leaving = [userId, ...(await teamsOfLeavingAccount(db, userId)).alone];
  await assertBillingSettled(db, leaving);
  // A team others work in is handed over first.
  await assertTeamsHandedOver(db, userId);
  await deleteStripeCustomers(db, deps.billing, leaving);
  const { disabledConnections } = await deleteAccountRows(db, userId);
  if (actor.email && deps.outboxDir) await deleteOutboxMail(deps.outboxDir, actor.email);
  try {
    await deps.deleteSignIn(userId);
  } finally {
    // The tombstone guarded the time between the rows and the sign-in account. Once Firebase
    // has no such user, its tokens fail on their own; if Firebase failed, lifting it lets the
    // user sign in again and ask again.
    await forgetDeletion(db, userId);
  }
  return { disabledConnections };
}

/** Lifts an account's tombstone once its sign-in account is deleted, or could not be. */
async function forgetDeletion(db: Db, userId: string): Promise<void> {
  await db.delete(deletedAccounts).where(eq(deletedAccounts.uid, userId));
}

/** Tombstones a process left behind (it stopped between the rows and Firebase), after a day. */
export async function purgeDeletedAccounts(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .delete(deletedAccounts)
    .where(lt(deletedAccounts.deletedAt, new Date(now.getTime() - 86_400_000)))
    .returning({ uid: deletedAccounts.uid });
  return rows.length;
}

/**
 * Removes every row of the user: the account row and its personal workspace, and the team
 * workspaces it is alone in, with everything they own (deleteWorkspaceRows), the account's
 * rate-limit counters and its mailing-list sign-up. One transaction: all or nothing. The connections
 * it answered for in teams that go on are disabled, as its leaving them would (answered, for their
 * owners to hear of).
 */
async function deleteAccountRows(
  db: Db,
  userId: string,
): Promise<{ disabledConnections: DisabledConnection[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(accountLock(userId));
    // Kept until the sign-in account is deleted too (see deletedAccounts).
    await tx.insert(deletedAccounts).values({ uid: userId }).onConflictDoNothing();
    const [user] = await tx
      .select({ email: users.email, displayName: users.displayName })
      .from(users)
      .where(eq(users.id, userId));
    // The personal workspace (its id is the uid) and the team workspaces the account is alone in.
    const gone = [userId, ...(await teamsOfLeavingAccount(tx as unknown as Db, userId)).alone];
    if (user?.email) {
      await tx
        .delete(mailingListSignups)
        .where(sql`lower(${mailingListSignups.email}) = ${user.email.toLowerCase()}`);
    }
    // Before the account row, whose trigger would take the personal workspace without its jobs.
    // The personal workspace's id is the uid, so its counters are the account's ('<name>:<uid>').
    await deleteWorkspaceRows(tx as unknown as Db, gone);
    // Keys the account made for team workspaces that go on: their secrets leave with it.
    const now = new Date();
    await revokeKeysMadeBy(tx as unknown as Db, userId, now);
    const disabledConnections = await disableAnsweredBy(tx as unknown as Db, {
      workspaceId: undefined,
      userId,
      reason: CONNECTION_MESSAGES.answererGone(memberName(user ?? { displayName: null, email: null })),
      now,
    });
    await tx.delete(users).where(eq(users.id, userId));
    return { disabledConnections };
  });
}
