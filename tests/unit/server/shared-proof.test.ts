// A domain the same person proved in another of their workspaces needs no second TXT record: the
// copy stands on that proof (proof 'shared'), gets its first scan at once, and lapses with it.
// Another person's proof never counts (docs/decisions.md, "A proof shared across one's workspaces").
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleDueScans } from '../../../src/core/domains/scheduled-scans.ts';
import { SHARED_PROOF_LAPSED } from '../../../src/core/domains/shared-proof.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { auditLog, domains, scans, workspaceMembers } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG, type DomainView } from '../../../src/model/contract.ts';
import type { WorkspaceView } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `a proof shared across one's workspaces on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const queue = { enqueue: async (id: string) => void queued.push(id) };
      const api = apiSuite(backend, { scanning: { queue, queueUp: () => true } });
      const { call, tag } = api;
      const zone = `acme-${tag}.com`;
      let ann: MintedUser;
      let bob: MintedUser;
      let team: string;
      let original: string;

      const add = (user: MintedUser, workspace: string, domain = zone) =>
        call('/api/domains', { method: 'POST', token: user.idToken, workspace, body: { domain } });
      const added = async (user: MintedUser, workspace: string) => {
        const res = await add(user, workspace);
        expect(res.status).toBe(201);
        return ((await res.json()) as { domain: DomainView }).domain;
      };
      const row = async (id: string) => (await api.db.select().from(domains).where(eq(domains.id, id)))[0];
      const scansIn = (workspace: string) =>
        api.db
          .select()
          .from(scans)
          .where(and(eq(scans.workspaceId, workspace), eq(scans.domain, zone)));

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
        bob = await api.signIn('bob', { email: `bob@${zone}` }, { verify: true });
        await setPlan(api.db, `ann@${zone}`, 'intro');
        const made = await call('/api/workspaces', {
          method: 'POST',
          token: ann.idToken,
          body: { name: 'Acme' },
        });
        team = ((await made.json()) as { workspace: WorkspaceView }).workspace.id;
        // Bob works in the team where Ann proved the domain: membership alone vouches for nothing.
        await api.db.insert(workspaceMembers).values({ workspaceId: team, userId: bob.uid, role: 'admin' });
        const [proven] = await api.db
          .insert(domains)
          .values({
            workspaceId: team,
            domain: zone,
            verificationToken: 'a'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
            proof: 'txt',
            provedBy: ann.uid,
            verifiedAt: new Date(),
          })
          .returning();
        original = proven?.id as string;
      });

      it("another person's proof does not count: the domain waits for its own TXT record, unscanned", async () => {
        const domain = await added(bob, bob.uid);
        expect(domain).toMatchObject({ status: 'pending', proof: null, lastScanId: null });
        expect(await scansIn(bob.uid)).toEqual([]);
      });

      it('the same person’s standing proof verifies the copy at once, and its first scan starts', async () => {
        const domain = await added(ann, ann.uid);
        expect(domain).toMatchObject({ status: 'verified', proof: 'shared', scanStatus: 'pending' });
        const [first] = await scansIn(ann.uid);
        expect(first).toMatchObject({ id: domain.lastScanId, trigger: 'scheduled', domainId: domain.id });
        expect(queued).toContain(first?.id);
        expect(await row(domain.id)).toMatchObject({ proofSourceId: original, provedBy: null });
        const [verified] = await api.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.workspaceId, ann.uid), eq(auditLog.action, 'domain.verified')));
        expect(verified?.detail).toMatchObject({ proof: 'shared', sharedFrom: { workspaceId: team } });
      });

      it('lapses with the original: paused there, the copy is pending again and a scan is refused', async () => {
        const [copy] = await api.db
          .select()
          .from(domains)
          .where(and(eq(domains.workspaceId, ann.uid), eq(domains.domain, zone)));
        await api.db.update(domains).set({ pausedReason: 'gone' }).where(eq(domains.id, original));
        await expectError(
          await call('/scan/api/v1/scan', {
            method: 'POST',
            token: ann.idToken,
            body: { domain: zone, scanType: 'dangling-subdomains' },
          }),
          409,
          SHARED_PROOF_LAPSED,
          'DOMAIN_NOT_VERIFIED',
        );
        expect(await row(copy?.id as string)).toMatchObject({
          status: 'pending',
          proof: null,
          proofSourceId: null,
          verificationError: SHARED_PROOF_LAPSED,
        });
        await api.db.update(domains).set({ pausedReason: null }).where(eq(domains.id, original));
        await api.db.delete(domains).where(eq(domains.id, copy?.id as string));
      });

      it('lapses with the original: removed there, the scheduler leaves the copy pending and unscanned', async () => {
        const before = (await scansIn(ann.uid)).length;
        const copy = await added(ann, ann.uid);
        expect(copy).toMatchObject({ status: 'verified', proof: 'shared' });
        // This workspace had its first scan of the name: adding it again is no way to another.
        expect(await scansIn(ann.uid)).toHaveLength(before);
        const removed = await call(`/api/domains/${original}`, {
          method: 'DELETE',
          token: ann.idToken,
          workspace: team,
        });
        expect(removed.status).toBe(204);
        const now = new Date();
        await api.db.update(scans).set({ status: 'completed' }).where(eq(scans.workspaceId, ann.uid));
        await api.db
          .update(domains)
          .set({ nextScanAt: new Date(now.getTime() - 60_000) })
          .where(eq(domains.id, copy.id));
        expect((await scheduleDueScans(api.db, queue, pino({ level: 'silent' }), { now })).started).toBe(0);
        expect(await row(copy.id)).toMatchObject({
          status: 'pending',
          proof: null,
          verificationError: SHARED_PROOF_LAPSED,
        });
        expect(await scansIn(ann.uid)).toHaveLength(before);
      });
    },
  );
}
