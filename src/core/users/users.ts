import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { deletedAccounts, users } from '../../db/schema.ts';
import { type AuthUserResponse, scanQuota, type Tier, type UserProfile } from '../../model/profile.ts';
import { startOfUtcDay, userScansSince } from '../domains/quota.ts';
import { ServiceError } from '../errors.ts';

type UserRow = typeof users.$inferSelect;

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

function profileOf(row: UserRow): UserProfile {
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
 * Creates the user on first sign-in, refreshes what the identity provider knows on later ones.
 * lastLoginAt is the token's auth_time, so calling this again within one session changes nothing.
 * A display name the user edited is kept: the provider's name only fills an empty one.
 */
export async function upsertUser(db: Db, token: SignIn): Promise<UserRow> {
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
    return row;
  });
}

/** Serialises an account's creation with its deletion (a transaction-scoped advisory lock). */
export function accountLock(uid: string) {
  return sql`select pg_advisory_xact_lock(hashtext(${`account:${uid}`}))`;
}

const userStatement = preparedStatement('user_by_id', (db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('uid'))),
);

/**
 * Runs `work` in a transaction that holds the user's row lock: a plan limit's check and the insert
 * it allows then cannot interleave with another request of the same user's (two tabs, a script),
 * which would let both pass the check. `work` must use the transaction it is given, not `db`.
 */
export function underUserLock<T>(db: Db, userId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return work(tx as unknown as Db);
  });
}

export async function findUser(db: Db, uid: string): Promise<UserRow | undefined> {
  const [row] = await userStatement(db).execute({ uid });
  return row;
}

export async function authUserResponse(db: Db, row: UserRow, now: Date): Promise<AuthUserResponse> {
  return {
    user: profileOf(row),
    domain: row.domain,
    quota: scanQuota(row.tier, await userScansSince(db, row.id, startOfUtcDay(now)), now),
  };
}

export { profileOf };

/**
 * The signed-in caller's row: the one requireAuth already read if it did, else read now, else
 * created, on the first call if POST /auth/verify has not run yet.
 */
export async function currentUser(db: Db, caller: { token: SignIn; account?: UserRow }): Promise<UserRow> {
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

export async function setDisplayName(db: Db, uid: string, displayName: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ displayName, updatedAt: sql`now()` })
    .where(eq(users.id, uid))
    .returning();
  return row;
}
