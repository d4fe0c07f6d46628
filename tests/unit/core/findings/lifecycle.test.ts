import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFindingHistory } from '../../../../src/core/findings/lifecycle.ts';
import type { Database } from '../../../../src/db/client.ts';
import { findings, users } from '../../../../src/db/schema.ts';
import type { FindingView } from '../../../../src/model/contract.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const finding = (subdomain: string, target: string, status: FindingView['status']): FindingView => ({
  subdomain,
  recordType: 'CNAME',
  target,
  service: 'Heroku',
  status,
  risk: status === 'review' ? 'low' : 'high',
  evidence: [`${subdomain} CNAME ${target}`],
  explanation: 'x',
  proofOfConcept: 'y',
  remediation: 'z',
});
const names = (list: { subdomain: string }[]) => list.map((f) => f.subdomain).sort();

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `finding history on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const scan = (id: string) => ({ id, workspaceId: 'u-hist', domain: 'acme.com' });
      const day = (n: number) => new Date(Date.UTC(2026, 10, n));

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values({ id: 'u-hist', email: 'h@acme.com', provider: 'google' });
      });
      afterAll(() => database?.close());

      it('classifies each scan against the open findings: new, still open, changed, resolved, back again', async () => {
        const a = finding('a.acme.com', 'a1.herokuapp.com', 'claimable');
        const b = finding('b.acme.com', 'b1.herokuapp.com', 'likely');
        const checkedBoth = ['acme.com', 'a.acme.com', 'b.acme.com'];
        const ids = Array.from({ length: 4 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);

        const first = await recordFindingHistory(
          database.db,
          scan(ids[0] as string),
          [a, b],
          checkedBoth,
          day(1),
        );
        expect(names(first.new)).toEqual(['a.acme.com', 'b.acme.com']);
        expect(first).toMatchObject({ changed: [], resolved: [], stillOpen: 0 });

        // The same A; B's status got worse: changed, with what it was.
        const second = await recordFindingHistory(
          database.db,
          scan(ids[1] as string),
          [a, { ...b, status: 'claimable' }],
          checkedBoth,
          day(2),
        );
        expect(second).toMatchObject({ new: [], resolved: [], stillOpen: 1 });
        expect(second.changed).toEqual([
          expect.objectContaining({
            subdomain: 'b.acme.com',
            status: 'claimable',
            from: { status: 'likely', target: 'b1.herokuapp.com' },
          }),
        ]);

        // A now points elsewhere at the same service: changed, not new; B is gone from a checked name: resolved.
        const movedA = { ...a, target: 'a2.herokuapp.com' };
        const third = await recordFindingHistory(
          database.db,
          scan(ids[2] as string),
          [movedA],
          checkedBoth,
          day(3),
        );
        expect(third.new).toEqual([]);
        expect(third.changed).toEqual([
          expect.objectContaining({
            subdomain: 'a.acme.com',
            target: 'a2.herokuapp.com',
            from: { status: 'claimable', target: 'a1.herokuapp.com' },
          }),
        ]);
        expect(names(third.resolved)).toEqual(['b.acme.com']);

        // B comes back (new again, same history row); A was not checked this time, so it stays open.
        const fourth = await recordFindingHistory(
          database.db,
          scan(ids[3] as string),
          [{ ...b, status: 'claimable' }],
          ['acme.com', 'b.acme.com'],
          day(4),
        );
        expect(names(fourth.new)).toEqual(['b.acme.com']);
        expect(fourth.resolved).toEqual([]);

        const rows = await database.db.select().from(findings).where(eq(findings.workspaceId, 'u-hist'));
        expect(rows).toHaveLength(2);
        const rowB = rows.find((r) => r.subdomain === 'b.acme.com');
        expect(rowB).toMatchObject({ resolvedAt: null, firstScanId: ids[0], lastScanId: ids[3] });
        expect(rowB?.firstSeenAt.toISOString()).toBe(day(1).toISOString());
        const rowA = rows.find((r) => r.subdomain === 'a.acme.com');
        expect(rowA).toMatchObject({ resolvedAt: null, lastScanId: ids[2] });
        expect(rowA?.latest.target).toBe('a2.herokuapp.com');
      });
    },
  );
}
