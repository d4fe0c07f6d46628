// The exports stream: every scan, once, in order, read a page at a time rather than all at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { demoFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { firebaseTokenVerifier, type TokenVerifier } from '../../../src/server/auth/verifier.ts';
import { apiCaller } from '../../helpers/api.ts';
import { testApp } from '../../helpers/app.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import {
  type MintedUser,
  mintIdToken,
  TEST_PROJECT_ID,
  waitForAuthEmulator,
} from '../../helpers/emulator.ts';

const emulatorHost = inject('authEmulatorHost');
process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;

/** More than two pages of the export's reads, with ties and microseconds in the creation times. */
const SCANS = 230;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `streamed exports on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let verifier: TokenVerifier;
      let app: ReturnType<typeof testApp>;
      const call = apiCaller({ request: (path, init) => app.request(path, init) });
      let ann: MintedUser;
      let bob: MintedUser;
      const tag = `${backend.name}-${Date.now()}`.toLowerCase();

      beforeAll(async () => {
        await waitForAuthEmulator(emulatorHost);
        database = await backend.open();
        verifier = firebaseTokenVerifier(TEST_PROJECT_ID);
        app = testApp(database, { auth: { verifier, publicConfig: { firebase: demoFirebaseConfig() } } });
        ann = await mintIdToken(emulatorHost, { sub: `ann-${tag}`, email: `ann@export-${tag}.com` });
        bob = await mintIdToken(emulatorHost, { sub: `bob-${tag}`, email: `bob@export-${tag}.com` });
        for (const user of [ann, bob]) {
          await call('/auth/verify', { method: 'POST', token: user.idToken });
          // Groups of three share one instant; the rest differ by microseconds only.
          await database.db.execute(sql`insert into scans (workspace_id, domain, status, created_at)
            select ${user.uid}, 'export-test.com', 'completed',
              timestamptz '2026-11-20 12:00:00' + make_interval(secs => (n / 3) * 0.000001)
            from generate_series(1, ${SCANS}) as n`);
        }
      });
      afterAll(async () => {
        await verifier?.close();
        await database?.close();
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
