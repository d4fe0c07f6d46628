import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUsers, setPlan } from '../../../src/core/operator/accounts.ts';
import type { Database } from '../../../src/db/client.ts';
import { domains, users, workspaces } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { databaseBackends } from '../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `danglewatch users on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values([
          { id: 'u-ann', email: 'Ann@Acme.com', provider: 'google' },
          { id: 'u-bob', email: 'bob@bob.org', provider: 'github' },
        ]);
        await database.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, 'u-bob'));
        await database.db.insert(domains).values({
          workspaceId: 'u-ann',
          domain: 'acme.com',
          verificationToken: 'c'.repeat(24),
          scanConfig: DEFAULT_SCAN_CONFIG,
        });
      });
      afterAll(() => database?.close());

      it('lists every account with its plan and domain count', async () => {
        expect(await listUsers(database.db)).toEqual([
          { email: 'Ann@Acme.com', tier: 'free', domains: 1, uid: 'u-ann' },
          { email: 'bob@bob.org', tier: 'intro', domains: 0, uid: 'u-bob' },
        ]);
      });

      it('grants a catalogue plan by e-mail, in any letter case', async () => {
        expect(await setPlan(database.db, 'ann@acme.COM', 'pro-solo')).toBe(1);
        const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, 'u-ann'));
        expect(row?.tier).toBe('pro-solo');
        expect(await setPlan(database.db, 'nobody@acme.com', 'intro')).toBe(0);
      });

      it('refuses a plan the catalogue does not have', async () => {
        await expect(setPlan(database.db, 'bob@bob.org', 'platinum')).rejects.toThrow(
          /unknown plan 'platinum'/,
        );
        const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, 'u-bob'));
        expect(row?.tier).toBe('intro');
      });
    },
  );
}
