import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { audit, auditRead } from '../../../src/core/audit.ts';
import { recordSignIn } from '../../../src/core/users/users.ts';
import { type Database, type Db, inTransaction, type Tx } from '../../../src/db/client.ts';
import { auditLog } from '../../../src/db/schema.ts';
import { pgliteBackend } from '../../helpers/databases.ts';

describe('the audit log', () => {
  let database: Database;
  beforeAll(async () => {
    database = await pgliteBackend.open();
  });
  afterAll(() => database?.close());

  const entriesOf = (db: Db, userId: string) =>
    db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.userId, userId));

  it('takes only an open transaction for a change, so an entry cannot outlive or precede its change', () => {
    expectTypeOf(audit).parameter(0).toEqualTypeOf<Tx>();
    // A connection whose change has already committed is refused by the compiler (astro check).
    // @ts-expect-error: a Db is not a transaction
    const refused: Parameters<typeof audit>[0] = database?.db;
    expect(refused).toBe(database?.db);
  });

  it('records a read without a transaction, and only reads that way', () => {
    expectTypeOf(auditRead).parameter(1).toHaveProperty('action').toEqualTypeOf<'data.exported'>();
  });

  it('writes the entry with its change, and neither when the change rolls back', async () => {
    const db = database.db;
    const token = {
      uid: 'audit-rollback',
      email: 'a@example.com',
      auth_time: 1_700_000_000,
      firebase: { sign_in_provider: 'google.com' },
    };
    await expect(
      inTransaction(db, async (tx) => {
        await recordSignIn(tx, token, '127.0.0.1');
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await entriesOf(db, 'audit-rollback')).toEqual([]);

    await recordSignIn(db, token, '127.0.0.1');
    expect(await entriesOf(db, 'audit-rollback')).toEqual([{ action: 'account.signed_in' }]);
  });
});
