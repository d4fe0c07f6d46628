// The Free plan is one allowance per account, however many workspaces: a Free account owns one team
// workspace, which shares its domains and daily scans with the personal one; paid plans keep their
// limits per workspace; creating workspaces is rate limited.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_CREATE_RATE } from '../../../src/core/limits.ts';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { underWorkspaceLock } from '../../../src/core/workspaces/workspaces.ts';
import { domains } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG, type DomainListResponse } from '../../../src/model/contract.ts';
import { DOMAIN_MESSAGES } from '../../../src/model/domain-input.ts';
import { getPlan } from '../../../src/model/plans.ts';
import { WORKSPACE_MESSAGES, type WorkspaceView } from '../../../src/model/workspaces.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `workspace limits on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const queued: string[] = [];
      const api = apiSuite(backend, {
        scanning: { queue: { enqueue: async (id) => void queued.push(id) }, queueUp: () => true },
      });
      const { call, tag } = api;
      const zone = `free-${tag}.com`;
      let ann: MintedUser;
      let team: string;

      const create = (user: MintedUser, name: string) =>
        call('/api/workspaces', { method: 'POST', token: user.idToken, body: { name } });
      const list = async (workspace: string) => {
        const res = await call('/api/domains', { token: ann.idToken, workspace });
        expect(res.status).toBe(200);
        return (await res.json()) as DomainListResponse;
      };
      const add = (workspace: string, domain: string) =>
        call('/api/domains', { method: 'POST', token: ann.idToken, workspace, body: { domain } });
      /** A domain proven a minute ago, as verification leaves it, within the plan. */
      const verified = async (workspaceId: string, domain: string) => {
        const [row] = await api.db
          .insert(domains)
          .values({
            workspaceId,
            domain,
            verificationToken: 'v'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
            ownershipCheckedAt: new Date(),
          })
          .returning();
        return row?.id as string;
      };

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${zone}` }, { verify: true });
      });

      it('a Free account owns one team workspace: the five after it are refused, saying why and how to get more', async () => {
        const first = await create(ann, 'Side project');
        expect(first.status).toBe(201);
        team = ((await first.json()) as { workspace: WorkspaceView }).workspace.id;
        for (let n = 2; n <= 6; n++) {
          await expectError(
            await create(ann, `Client ${n}`),
            409,
            WORKSPACE_MESSAGES.teamLimit(getPlan('free')),
            'WORKSPACE_LIMIT',
          );
        }
        expect(WORKSPACE_MESSAGES.teamLimit(getPlan('free'))).toBe(
          'The Free plan includes 1 team workspace, which shares your 1 domain and 1 scan a day: upgrade your own plan (Settings → Plan) to create more team workspaces, each with a plan of its own',
        );
        const mine = (await (await call('/api/workspaces', { token: ann.idToken })).json()) as {
          workspaces: WorkspaceView[];
        };
        expect(mine.workspaces.map((w) => [w.personal, w.plan])).toEqual([
          [true, 'free'],
          [false, 'free'],
        ]);
      });

      it('the Free team workspace shares the one domain of its owner’s Free plan, and the quota says so', async () => {
        expect((await add(ann.uid, zone)).status).toBe(201);
        await expectError(await add(team, `app.${zone}`), 409, DOMAIN_MESSAGES.limit(1), 'DOMAIN_LIMIT');
        const inTeam = await list(team);
        expect(inTeam.domains).toEqual([]);
        expect(inTeam.quota).toMatchObject({
          tier: 'free',
          currentDomains: 1,
          maxDomains: 1,
          sharedWith: [{ id: ann.uid, name: 'Personal' }],
        });
        expect((await list(ann.uid)).quota.sharedWith).toEqual([{ id: team, name: 'Side project' }]);
        // The plan tab's usage is the shared one, and says so.
        const billing = await call('/api/billing/info', { token: ann.idToken, workspace: team });
        expect(((await billing.json()) as { usage: unknown }).usage).toEqual({
          domainsMonitored: 1,
          scansUsed: 0,
          scansThisMonth: 0,
          sharedWith: [{ id: ann.uid, name: 'Personal' }],
        });

        // The other way round: the place is the team's now, and the personal workspace has none.
        const [own] = (await list(ann.uid)).domains;
        expect((await call(`/api/domains/${own?.id}`, { method: 'DELETE', token: ann.idToken })).status).toBe(
          204,
        );
        expect((await add(team, `app.${zone}`)).status).toBe(201);
        await expectError(await add(ann.uid, zone), 409, DOMAIN_MESSAGES.limit(1), 'DOMAIN_LIMIT');
        await api.db.delete(domains).where(eq(domains.workspaceId, team));
      });

      it('a requested scan in one workspace uses up the day’s scan of both', async () => {
        const personalDomain = await verified(ann.uid, zone);
        const scan = (workspace: string, domain: string) =>
          call('/scan/api/v1/scan', {
            method: 'POST',
            token: ann.idToken,
            workspace,
            body: { domain, scanType: 'dangling-subdomains' },
          });
        expect((await scan(ann.uid, zone)).status).toBe(202);
        // The personal domain goes, and a domain of the team takes its place within the plan.
        await api.db.delete(domains).where(eq(domains.id, personalDomain));
        await verified(team, `app.${zone}`);
        const refused = await scan(team, `app.${zone}`);
        expect(refused.status).toBe(409);
        expect(await refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
        expect((await list(team)).quota).toMatchObject({ scansUsedToday: 1, maxScansPerDay: 1 });
        // The profile's count, which the account menu shows, is the shared one too.
        const profile = (await (await call('/auth/user', { token: ann.idToken })).json()) as {
          quota: { used: number; remaining: number };
        };
        expect(profile.quota).toMatchObject({ used: 1, remaining: 0 });
      });

      it('a downgrade to Free puts the domains beyond the shared allowance out of the plan', async () => {
        // The team pays for Intro and adds two domains; back on Free, only the oldest of the three
        // domains across both workspaces stays within the plan.
        expect(await setPlan(api.db, `ann@${zone}`, 'intro', team)).toBe(1);
        expect((await list(team)).quota.sharedWith).toEqual([]);
        await api.db.delete(domains).where(eq(domains.workspaceId, team));
        expect((await add(ann.uid, zone)).status).toBe(201);
        expect((await add(team, `a.${zone}`)).status).toBe(201);
        expect((await add(team, `b.${zone}`)).status).toBe(201);
        expect(await setPlan(api.db, `ann@${zone}`, 'free', team)).toBe(1);
        const over = async (workspaceId: string) =>
          (
            await api.db
              .select({ domain: domains.domain, over: domains.overPlanLimit })
              .from(domains)
              .where(and(eq(domains.workspaceId, workspaceId)))
              .orderBy(domains.domain)
          ).map((row) => `${row.domain} ${row.over ? 'beyond' : 'within'}`);
        expect(await over(ann.uid)).toEqual([`${zone} within`]);
        expect(await over(team)).toEqual([`a.${zone} beyond`, `b.${zone} beyond`]);

        // 'Keep this domain' chooses across both workspaces; deleting the team gives its place back.
        const [, kept] = (await list(team)).domains;
        expect(kept?.domain).toBe(`b.${zone}`);
        const keep = await call(`/api/domains/${kept?.id}/keep`, {
          method: 'POST',
          token: ann.idToken,
          workspace: team,
        });
        expect(keep.status).toBe(200);
        expect(await over(ann.uid)).toEqual([`${zone} beyond`]);
        expect(await over(team)).toEqual([`a.${zone} beyond`, `b.${zone} within`]);
        expect((await call(`/api/workspaces/${team}`, { method: 'DELETE', token: ann.idToken })).status).toBe(
          204,
        );
        expect(await over(ann.uid)).toEqual([`${zone} within`]);
        expect((await list(ann.uid)).quota.sharedWith).toEqual([]);
      });

      it("a limit's check in a Free team workspace waits for one in its owner's personal workspace", async () => {
        // What keeps two domains added at once, one in each, from both taking the one place.
        const carol = await api.signIn('carol', { email: `carol@carol-${tag}.com` }, { verify: true });
        const made = await create(carol, 'Carol team');
        const carolTeam = ((await made.json()) as { workspace: WorkspaceView }).workspace.id;
        const order: string[] = [];
        let release = () => {};
        let entered = () => {};
        const inside = new Promise<void>((resolve) => {
          entered = resolve;
        });
        const first = underWorkspaceLock(api.db, carolTeam, async () => {
          order.push('team');
          entered();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          order.push('team done');
        });
        await inside;
        const second = underWorkspaceLock(api.db, carol.uid, async () => void order.push('personal'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        release();
        await Promise.all([first, second]);
        expect(order).toEqual(['team', 'team done', 'personal']);
      });

      it('paid plans keep their own limits per workspace, and creating workspaces is rate limited', async () => {
        const bob = await api.signIn('bob', { email: `bob@paid-${tag}.com` }, { verify: true });
        expect(await setPlan(api.db, `bob@paid-${tag}.com`, 'intro')).toBe(1);
        const made: string[] = [];
        for (let n = 1; n <= WORKSPACE_CREATE_RATE.limit; n++) {
          const res = await create(bob, `Client ${n}`);
          expect(res.status, `workspace ${n}`).toBe(201);
          expect(res.headers.get('x-ratelimit-limit')).toBe(String(WORKSPACE_CREATE_RATE.limit));
          made.push(((await res.json()) as { workspace: WorkspaceView }).workspace.id);
        }
        await expectError(await create(bob, 'One too many'), 429, 'Rate limit exceeded');
        // The personal workspace's Intro limits are its own; its team workspaces, all on Free, share
        // one Free allowance among themselves.
        const personal = (await (
          await call('/api/domains', { token: bob.idToken })
        ).json()) as DomainListResponse;
        expect(personal.quota).toMatchObject({ tier: 'intro', maxDomains: 25, sharedWith: [] });
        const teamQuota = (await (
          await call('/api/domains', { token: bob.idToken, workspace: made[0] })
        ).json()) as DomainListResponse;
        expect(teamQuota.quota.maxDomains).toBe(1);
        expect(teamQuota.quota.sharedWith.map((w) => w.id).sort()).toEqual(made.slice(1).sort());
      });
    },
  );
}
