// What a plan allows stays what it allows: each test reproduces what a thrifty user or someone who
// lost a domain tried against the running app, and shows it no longer works.
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVER_PLAN_LIMIT_MESSAGE } from '../../../src/core/domains/plan-limit.ts';
import { scheduleDueScans } from '../../../src/core/domains/scheduled-scans.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { domains, scans } from '../../../src/db/schema.ts';
import { OWNERSHIP_RECHECK_MS } from '../../../src/model/constants.ts';
import { DEFAULT_SCAN_CONFIG, type DomainView } from '../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../fixtures/dns-server.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const DAY_MS = 86_400_000;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `plan integrity on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let dns: DnsFixture;
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      beforeAll(async () => {
        dns = await startDnsServer();
      });
      const api = apiSuite(backend, () => ({
        scanning: { queue, queueUp: () => true, resolvers: [`127.0.0.1:${dns.port}`] },
      }));
      const { call, tag } = api;
      let ann: MintedUser;
      let cat: MintedUser;
      let dan: MintedUser;

      const signIn = (name: string) =>
        api.signIn(name, { email: `${name}@${name}-${tag}.com` }, { verify: true });
      /** A domain verified long ago, with its record published, as a paying user would have it. */
      const verifiedDomain = async (user: MintedUser, name: string, createdAt: Date) => {
        const [row] = await api.db
          .insert(domains)
          .values({
            workspaceId: user.uid,
            domain: name,
            verificationToken: 't'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
            verifiedAt: createdAt,
            ownershipCheckedAt: new Date(),
            nextScanAt: new Date(Date.now() - 60_000),
            createdAt,
          })
          .returning();
        dns.add(name, { type: 'TXT', data: `danglewatch-verify=${'t'.repeat(24)}` });
        return row?.id as string;
      };
      const listed = async (user: MintedUser) =>
        ((await (await call('/api/domains', { token: user.idToken })).json()) as { domains: DomainView[] })
          .domains;
      const scan = (user: MintedUser, domain: string) =>
        call('/scan/api/v1/scan', {
          method: 'POST',
          token: user.idToken,
          body: { domain, scanType: 'dangling-subdomains' },
        });

      beforeAll(async () => {
        ann = await signIn('ann');
        cat = await signIn('cat');
        dan = await signIn('dan');
      });
      afterAll(async () => {
        await dns?.close();
      });

      it('regression: a downgrade stops scans of the domains beyond the plan, and an upgrade brings them back', async () => {
        await setPlan(api.db, `ann@ann-${tag}.com`, 'pro-solo');
        const names = ['first', 'second', 'third'].map((n) => `${n}.ann-${tag}.com`);
        for (const [i, name] of names.entries()) {
          await verifiedDomain(ann, name, new Date(Date.now() - (10 - i) * DAY_MS));
        }
        await setPlan(api.db, `ann@ann-${tag}.com`, 'free');

        // Free covers one domain: the oldest is kept, the others say why they are not scanned.
        const view = await listed(ann);
        expect(view.map((d) => [d.domain, d.overPlanLimit, d.isActive])).toEqual([
          [names[0], false, true],
          [names[1], true, false],
          [names[2], true, false],
        ]);
        expect(view[1]?.pausedReason).toBe(OVER_PLAN_LIMIT_MESSAGE);
        expect(view[1]?.nextScanAt).toBeNull();

        // The scheduler starts the kept one only, and a scan asked for by hand is refused.
        const before = queued.length;
        await scheduleDueScans(api.db, queue, pino({ level: 'silent' }), {
          resolvers: [`127.0.0.1:${dns.port}`],
        });
        const started = await api.db.select().from(scans).where(eq(scans.workspaceId, ann.uid));
        expect(started.map((s) => s.domain)).toEqual([names[0]]);
        expect(queued.length).toBe(before + 1);
        await expectError(await scan(ann, names[2] as string), 403, OVER_PLAN_LIMIT_MESSAGE, 'PLAN_LIMIT');

        // The owner chooses which to keep: the third instead of the first.
        const third = view[2] as DomainView;
        const kept = await call(`/api/domains/${third.id}/keep`, { method: 'POST', token: ann.idToken });
        expect(kept.status).toBe(200);
        expect(((await kept.json()) as { domain: DomainView }).domain).toMatchObject({
          overPlanLimit: false,
          isActive: true,
        });
        expect((await listed(ann)).map((d) => d.overPlanLimit)).toEqual([true, true, false]);
        // Another user's domain cannot be kept by this one.
        expect(
          (await call(`/api/domains/${third.id}/keep`, { method: 'POST', token: cat.idToken })).status,
        ).toBe(404);

        await setPlan(api.db, `ann@ann-${tag}.com`, 'intro');
        expect((await listed(ann)).map((d) => d.overPlanLimit)).toEqual([false, false, false]);
      });

      it('regression: a domain whose ownership record is gone cannot be scanned by hand, nor a paused one', async () => {
        await setPlan(api.db, `cat@cat-${tag}.com`, 'solo');
        const name = `lost.cat-${tag}.com`;
        const id = await verifiedDomain(cat, name, new Date(Date.now() - 30 * DAY_MS));
        // Last seen two days ago; since then the domain changed hands and the record went.
        await api.db
          .update(domains)
          .set({ ownershipCheckedAt: new Date(Date.now() - OWNERSHIP_RECHECK_MS - DAY_MS) })
          .where(eq(domains.id, id));
        dns.zone.delete(name);
        dns.add(name, { type: 'A', data: '93.184.216.34' });
        await expectError(
          await scan(cat, name),
          409,
          `The TXT record danglewatch-verify=${'t'.repeat(24)} is no longer at ${name}. Add it back and verify again to scan this domain.`,
          'OWNERSHIP_NOT_FOUND',
        );
        const [row] = await api.db.select().from(domains).where(eq(domains.id, id));
        expect(row?.recordMissingSince).not.toBeNull();

        // Back in place: the scan goes, and the record counts as seen now.
        dns.add(name, { type: 'TXT', data: `danglewatch-verify=${'t'.repeat(24)}` });
        expect((await scan(cat, name)).status).toBe(202);
        const [checked] = await api.db.select().from(domains).where(eq(domains.id, id));
        expect(Date.now() - (checked?.ownershipCheckedAt.getTime() ?? 0)).toBeLessThan(60_000);

        // Paused by the scheduler after seven days without the record: verify again first.
        const paused = 'Monitoring paused: the TXT record has been missing since 2026-11-01.';
        const pausedName = `paused.cat-${tag}.com`;
        const pausedId = await verifiedDomain(cat, pausedName, new Date(Date.now() - 30 * DAY_MS));
        await api.db.update(domains).set({ pausedReason: paused }).where(eq(domains.id, pausedId));
        await expectError(await scan(cat, pausedName), 409, paused, 'DOMAIN_PAUSED');
      });

      it('regression: removing and adding a domain again gives no second free scan and no second running scan', async () => {
        const name = `dan-${tag}.com`;
        dns.add(name, { type: 'TXT', data: 'placeholder' });
        const cycle = async () => {
          const added = await call('/api/domains', {
            method: 'POST',
            token: dan.idToken,
            body: { domain: name },
          });
          expect(added.status).toBe(201);
          const { domain } = (await added.json()) as { domain: DomainView };
          dns.zone.delete(name);
          dns.add(name, { type: 'TXT', data: domain.txtRecord.value });
          const verified = await call(`/api/domains/${domain.id}/verify`, {
            method: 'POST',
            token: dan.idToken,
          });
          expect(((await verified.json()) as { verified: boolean }).verified).toBe(true);
          return domain.id;
        };
        const firstId = await cycle();
        const free = await api.db.select().from(scans).where(eq(scans.workspaceId, dan.uid));
        expect(free.map((s) => s.trigger)).toEqual(['scheduled']);

        // The first scan is still pending when the domain is removed and added again.
        expect((await call(`/api/domains/${firstId}`, { method: 'DELETE', token: dan.idToken })).status).toBe(
          204,
        );
        await cycle();
        const after = await api.db.select().from(scans).where(eq(scans.workspaceId, dan.uid));
        expect(after).toHaveLength(1);
        // The old scan still holds the name: no second scan of it runs beside it.
        const busy = await scan(dan, name);
        expect(busy.status).toBe(409);
        expect(((await busy.json()) as { code: string }).code).toBe('SCAN_IN_PROGRESS');

        // Once it ended, scans of the name count against the day's quota like any other.
        await api.db
          .update(scans)
          .set({ status: 'completed' })
          .where(and(eq(scans.workspaceId, dan.uid), eq(scans.domain, name)));
        expect((await scan(dan, name)).status).toBe(202);
        const counted = await api.db.select().from(scans).where(eq(scans.workspaceId, dan.uid));
        expect(counted.map((s) => s.trigger).sort()).toEqual(['manual', 'scheduled']);
      });
    },
  );
}
