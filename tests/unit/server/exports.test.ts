// The exports stream: every scan, once, in order, read a page at a time rather than all at once.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

/** More than two pages of the export's reads, with ties and microseconds in the creation times. */
const SCANS = 230;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `streamed exports on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend);
      const { call, tag } = api;
      let ann: MintedUser;
      let bob: MintedUser;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@export-${tag}.com` }, { verify: true });
        bob = await api.signIn('bob', { email: `bob@export-${tag}.com` }, { verify: true });
        for (const user of [ann, bob]) {
          // Groups of three share one instant; the rest differ by microseconds only.
          await api.db.execute(sql`insert into scans (workspace_id, domain, status, created_at)
            select ${user.uid}, 'export-test.com', 'completed',
              timestamptz '2026-11-20 12:00:00' + make_interval(secs => (n / 3) * 0.000001)
            from generate_series(1, ${SCANS}) as n`);
        }
      });

      it('the scan export holds every scan once, newest first, and none of another user', async () => {
        const res = await call('/scan/api/v1/export', { token: ann.idToken });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('application/json');
        const body = (await res.json()) as {
          exportedAt: string;
          scans: { scan_id: string; created_at: string }[];
        };
        expect(body.scans).toHaveLength(SCANS);
        expect(new Set(body.scans.map((s) => s.scan_id)).size).toBe(SCANS);
        const times = body.scans.map((s) => s.created_at);
        expect([...times].sort().reverse()).toEqual(times);
        const bobs = (await (await call('/scan/api/v1/export', { token: bob.idToken })).json()) as {
          scans: { scan_id: string }[];
        };
        const mine = new Set(body.scans.map((s) => s.scan_id));
        expect(bobs.scans.some((s) => mine.has(s.scan_id))).toBe(false);
      });

      it('the account export holds every scan once, oldest first', async () => {
        const res = await call('/api/auth/export', { token: ann.idToken });
        expect(res.status).toBe(200);
        const body = (await res.json()) as {
          scans: { id: string; createdAt: string }[];
          user: { uid: string };
        };
        expect(body.user.uid).toBe(ann.uid);
        expect(body.scans).toHaveLength(SCANS);
        expect(new Set(body.scans.map((s) => s.id)).size).toBe(SCANS);
        const times = body.scans.map((s) => s.createdAt);
        expect([...times].sort()).toEqual(times);
      });
    },
  );
}
