// A server that sells no plans gives every workspace the plan DEFAULT_PLAN names (the largest by
// default): a gmail user monitors domains of their own, team workspaces are on it too, and the
// operator command, which could not change what a workspace has, says so. The stored plans stay.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../../src/core/operator/accounts.ts';
import { setServerPlan } from '../../../src/core/server-plan.ts';
import { workspaces } from '../../../src/db/schema.ts';
import type { BillingInfo } from '../../../src/model/billing.ts';
import { LARGEST_PLAN } from '../../../src/model/plans.ts';
import type { AuthUserResponse } from '../../../src/model/profile.ts';
import type { WorkspaceView } from '../../../src/model/workspaces.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `a server that sells no plans on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend);
      const { call, tag } = api;
      let gmail: MintedUser;

      beforeAll(async () => {
        setServerPlan(LARGEST_PLAN.id);
        gmail = await api.signIn('gm', { email: `someone-${tag}@gmail.com` }, { verify: true });
      });
      afterAll(() => setServerPlan(null));

      it('the largest plan is Pro Solo', () => {
        expect(LARGEST_PLAN.id).toBe('pro-solo');
      });

      it("a gmail user has Pro Solo's limits and adds domains of their own", async () => {
        const res = await call('/auth/user', { token: gmail.idToken });
        expect(res.status).toBe(200);
        const me = (await res.json()) as AuthUserResponse;
        expect(me.user.tier).toBe('pro-solo');
        expect(me.quota).toMatchObject({ daily: null, maxDomains: 500 });
        for (const domain of [`mine-${tag}.com`, `side-${tag}.dev`]) {
          const added = await call('/api/domains', {
            method: 'POST',
            token: gmail.idToken,
            body: { domain },
          });
          expect(added.status).toBe(201);
        }
        // The row keeps what it had: a server that starts billing finds Free again.
        const [row] = await api.db.select().from(workspaces).where(eq(workspaces.id, gmail.uid));
        expect(row?.tier).toBe('free');
      });

      it('the Plan tab is told the plan every workspace has, and that nothing is sold', async () => {
        const res = await call('/api/billing/info', { token: gmail.idToken });
        expect(res.status).toBe(200);
        const info = (await res.json()) as BillingInfo;
        expect(info.plan).toMatchObject({ id: 'pro-solo', name: 'Pro Solo' });
        expect(info.billing).toEqual({ configured: false, purchasable: [], serverPlan: 'pro-solo' });
        expect(info.usage.domainsMonitored).toBe(2);
        expect(info.usage.sharedWith).toEqual([]);
        expect((await call('/api/billing/info')).status).toBe(401);
      });

      it('team workspaces are on the server plan too: more than Free allows, each its own', async () => {
        for (const name of ['Client A', 'Client B']) {
          const res = await call('/api/workspaces', { method: 'POST', token: gmail.idToken, body: { name } });
          expect(res.status).toBe(201);
          expect(((await res.json()) as { workspace: WorkspaceView }).workspace.plan).toBe('pro-solo');
        }
        const list = (await (await call('/api/workspaces', { token: gmail.idToken })).json()) as {
          workspaces: WorkspaceView[];
        };
        expect(list.workspaces.map((w) => w.plan)).toEqual(['pro-solo', 'pro-solo', 'pro-solo']);
      });

      it('the operator command refuses to set a plan the workspace would not have, naming DEFAULT_PLAN', async () => {
        await expect(setPlan(api.db, `someone-${tag}@gmail.com`, 'intro')).rejects.toThrow(
          'this server sells no plans: every workspace has pro-solo (DEFAULT_PLAN); set DEFAULT_PLAN=free to give plans one by one',
        );
      });

      it("another account cannot read a team workspace's plan; a blank name is bad input", async () => {
        const team = (await (await call('/api/workspaces', { token: gmail.idToken })).json()) as {
          workspaces: WorkspaceView[];
        };
        const other = await api.signIn('other', { email: `other@other-${tag}.com` });
        const res = await call('/api/billing/info', {
          token: other.idToken,
          workspace: team.workspaces[1]?.id,
        });
        expect([403, 404]).toContain(res.status);
        const blank = await call('/api/workspaces', {
          method: 'POST',
          token: gmail.idToken,
          body: { name: ' ' },
        });
        expect(blank.status).toBe(400);
      });
    },
  );
}
