import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestScan } from '../../../../src/core/domains/scan-requests.ts';
import { ScanRefused } from '../../../../src/core/errors.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, users } from '../../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG, DEFAULT_SCAN_OPTIONS } from '../../../../src/model/contract.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `one active scan per domain on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      const workspace = { id: 'u-race', tier: 'pro-solo' };

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values({ id: 'u-race', email: 'r@race.com', provider: 'google' });
      });
      afterAll(() => database?.close());

      const addDomain = async (name: string) => {
        const [row] = await database.db
          .insert(domains)
          .values({
            workspaceId: 'u-race',
            domain: name,
            verificationToken: 'r'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        if (!row) throw new Error('no domain');
        return row;
      };
      const ask = (domain: Awaited<ReturnType<typeof addDomain>>) =>
        requestScan(database.db, queue, {
          workspace,
          domain,
          trigger: 'scheduled',
          config: DEFAULT_SCAN_OPTIONS,
          now: new Date(),
        });

      it('refuses a second scan while one is active, naming the active one', async () => {
        const domain = await addDomain('once.com');
        const first = await ask(domain);
        const refused = await ask(domain).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ScanRefused);
        expect(refused).toMatchObject({
          code: 'SCAN_IN_PROGRESS',
          details: [{ path: 'scan_id', message: first.id }],
        });
        expect(queued).toEqual([first.id]);
      });

      // A scan the scheduling pass inserts, which takes no workspace lock, committed while a request
      // is between its check and its insert: the index refuses the second, in the same words.
      if (backend.name === 'PostgreSQL')
        it('a request that races an insert of the pass is refused as already running', async () => {
          if (database.kind !== 'postgres') throw new Error('needs a second connection');
          const domain = await addDomain('raced.com');
          const other = await database.pool.connect();
          try {
            await other.query('begin');
            const { rows } = await other.query<{ id: string }>(
              `insert into scans (workspace_id, domain_id, domain, trigger) values ($1, $2, $3, 'scheduled') returning id`,
              [workspace.id, domain.id, domain.domain],
            );
            // The request finds no active scan (not committed yet) and waits on the index for it.
            const asked = ask(domain).catch((error: unknown) => error);
            await new Promise((resolve) => setTimeout(resolve, 300));
            await other.query('commit');
            expect(await asked).toMatchObject({
              code: 'SCAN_IN_PROGRESS',
              message: 'A scan of raced.com is already running',
              details: [{ path: 'scan_id', message: rows[0]?.id }],
            });
          } finally {
            other.release();
          }
        });
    },
  );
}
