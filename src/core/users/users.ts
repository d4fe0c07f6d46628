import { eq, sql } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { deletedAccounts, users, workspaces } from '../../db/schema.ts';
import { type AuthUserResponse, scanQuota, type Tier, type UserProfile } from '../../model/profile.ts';
import { audit } from '../audit.ts';
import { scansToday } from '../domains/quota.ts';
import { ServiceError } from '../errors.ts';
import { effectiveTier } from '../server-plan.ts';

type UserRow = typeof users.$inferSelect;

/** An account: its row, and the plan of its personal workspace (which billing and the operator set). */
export type Account = UserRow & { tier: string };

/** What a verified sign-in says of its user: the fields of a Firebase ID token this layer reads. */
interface SignIn {
  uid: string;
  email?: string;
  name?: unknown;
  picture?: string;
  /** Seconds since the epoch. */
  auth_time: number;
  firebase?: { sign_in_provider?: string };
}

/** 'google' for Google sign-ins, 'github' otherwise: the two providers the sign-in page offers. */
function providerOf(token: SignIn): 'google' | 'github' {
  return token.firebase?.sign_in_provider === 'google.com' ? 'google' : 'github';
}

function profileOf(row: Account): UserProfile {
  return {
    uid: row.id,
    displayName: row.displayName,
    email: row.email,
    photoURL: row.photoUrl,
    provider: row.provider === 'google' ? 'google' : 'github',
    tier: row.tier as Tier,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt.toISOString(),
  };
}

/**
 * The browser's sign-in bookkeeping, called on every page load: the account as upsertUser keeps it,
 * and a new sign-in (a new auth_time) in the audit log.
 */
export async function recordSignIn(db: Db, token: SignIn, ip: string | undefined): Promise<Account> {
  return inTransaction(db, async (tx) => {
    const before = await findUser(tx, token.uid);
    const row = await upsertUser(tx, token);
    if (before?.lastLoginAt.getTime() !== row.lastLoginAt.getTime()) {
      await audit(tx, {
        userId: row.id,
        action: 'account.signed_in',
        detail: { provider: row.provider },
        ip,
      });
    }
    return row;
  });
}

/**
 * Creates the user on first sign-in, refreshes what the identity provider knows on later ones.
 * lastLoginAt is the token's auth_time, so calling this again within one session changes nothing.
 * A display name the user edited is kept: the provider's name only fills an empty one.
 */
export async function upsertUser(db: Db, token: SignIn): Promise<Account> {
  const values = {
    id: token.uid,
    email: token.email ?? null,
    displayName: typeof token.name === 'string' && token.name.trim() ? token.name.trim() : null,
    photoUrl: token.picture ?? null,
    provider: providerOf(token),
    lastLoginAt: new Date(token.auth_time * 1000),
  };
  return db.transaction(async (tx) => {
    // The same lock as the account's deletion: a token still valid while the account is being
    // deleted finds the tombstone, and never creates the row again.
    await tx.execute(accountLock(token.uid));
    const [deleted] = await tx.select().from(deletedAccounts).where(eq(deletedAccounts.uid, token.uid));
    if (deleted)
      throw new ServiceError('unauthenticated', 'ACCOUNT_DELETED', 'This account has been deleted');
    const [row] = await tx
      .insert(users)
      .values(values)
      .onConflictDoUpdate({
        target: users.id,
        set: {
          email: values.email,
          photoUrl: values.photoUrl,
          provider: values.provider,
          lastLoginAt: values.lastLoginAt,
          displayName: sql`coalesce(${users.displayName}, excluded.display_name)`,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    // The personal workspace, and its plan, came with the row (a database trigger).
    const [personal] = await tx
      .select({ tier: workspaces.tier })
      .from(workspaces)
      .where(eq(workspaces.id, row.id));
    return { ...row, tier: effectiveTier(personal?.tier) };
  });
}

/** Serialises an account's creation with its deletion (a transaction-scoped advisory lock). */
export function accountLock(uid: string) {
  return sql`select pg_advisory_xact_lock(hashtext(${`account:${uid}`}))`;
}

const userStatement = preparedStatement('user_by_id', (db) =>
  db
    .select({ user: users, tier: workspaces.tier })
    .from(users)
    .leftJoin(workspaces, eq(workspaces.id, users.id))
    .where(eq(users.id, sql.placeholder('uid'))),
);

export async function findUser(db: Db, uid: string): Promise<Account | undefined> {
  const [row] = await userStatement(db).execute({ uid });
  return row && { ...row.user, tier: effectiveTier(row.tier) };
}

export async function authUserResponse(db: Db, row: Account, now: Date): Promise<AuthUserResponse> {
  return {
    user: profileOf(row),
    domain: row.domain,
    quota: scanQuota(row.tier, await scansToday(db, row, now), now),
  };
}

export { profileOf };

/**
 * The signed-in caller's row: the one requireAuth already read if it did, else read now, else
 * created, on the first call if POST /auth/verify has not run yet.
 */
export async function currentUser(db: Db, caller: { token: SignIn; account?: Account }): Promise<Account> {
  return caller.account ?? (await findUser(db, caller.token.uid)) ?? (await upsertUser(db, caller.token));
}

/** Sets the account's primary domain (already checked against the domain rule). */
export async function setPrimaryDomain(db: Db, uid: string, domain: string): Promise<void> {
  await db.update(users).set({ domain, updatedAt: sql`now()` }).where(eq(users.id, uid));
}

/** Merges `settings` into the account's settings; answers them all. */
export async function mergeSettings(
  db: Db,
  uid: string,
  settings: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const [row] = await db
    .update(users)
    .set({ settings: sql`${users.settings} || ${JSON.stringify(settings)}::jsonb`, updatedAt: sql`now()` })
    .where(eq(users.id, uid))
    .returning({ settings: users.settings });
  return row?.settings ?? {};
}

export async function setDisplayName(db: Db, uid: string, displayName: string): Promise<Account | undefined> {
  const [row] = await db
    .update(users)
    .set({ displayName, updatedAt: sql`now()` })
    .where(eq(users.id, uid))
    .returning({ id: users.id });
  return row && findUser(db, row.id);
}
