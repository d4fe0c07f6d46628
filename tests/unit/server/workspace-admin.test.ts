import { and, eq, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import {
  apiKeys,
  auditLog,
  dnsConnections,
  dnsConnectionZones,
  domains,
  findings,
  rateLimits,
  scans,
  webhookDeliveries,
  webhooks,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
  zoneRecordChanges,
  zoneRecords,
} from '../../../src/db/schema.ts';
import {
  type MembersResponse,
  WORKSPACE_HEADER,
  WORKSPACE_MESSAGES,
  type WorkspaceView,
} from '../../../src/model/workspaces.ts';
import { startWorker } from '../../../src/worker/queue.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `renaming and deleting a team workspace, handing it over, on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend);
      const { call, tag } = api;
      /** Ann owns the team, Bob is its admin, Cleo a member, Dan is not in it. */
      let ann: MintedUser;
      let bob: MintedUser;
      let cleo: MintedUser;
      let dan: MintedUser;
      let team: WorkspaceView;

      const list = async (user: MintedUser) =>
        (
          (await (await call('/api/workspaces', { token: user.idToken })).json()) as {
            workspaces: WorkspaceView[];
          }
        ).workspaces;
      const rename = (user: MintedUser | undefined, id: string, body: unknown) =>
        call(`/api/workspaces/${id}`, { method: 'PATCH', token: user?.idToken, body });
      const remove = (user: MintedUser | undefined, id: string) =>
        call(`/api/workspaces/${id}`, { method: 'DELETE', token: user?.idToken });
      const setRole = (user: MintedUser, id: string, member: MintedUser, role: string) =>
        call(`/api/workspaces/${id}/members/${member.uid}`, {
          method: 'PATCH',
          token: user.idToken,
          body: { role },
        });
      /** A team workspace of `owner`'s with `others` in it as members. */
      const teamOf = async (owner: MintedUser, name: string, others: MintedUser[] = []) => {
        const res = await call('/api/workspaces', { method: 'POST', token: owner.idToken, body: { name } });
        const { workspace } = (await res.json()) as { workspace: WorkspaceView };
        for (const other of others) {
          await api.db
            .insert(workspaceMembers)
            .values({ workspaceId: workspace.id, userId: other.uid, role: 'member' });
        }
        return workspace;
      };

      beforeAll(async () => {
        const person = (name: string) => api.signIn(name, { email: `${name}-${tag}@acme.com` });
        [ann, bob, cleo, dan] = [
          await person('ann'),
          await person('bob'),
          await person('cleo'),
          await person('dan'),
        ];
        // Ann owns several team workspaces, which a Free account may not (workspace-limits.test.ts).
        await api.db.update(workspaces).set({ tier: 'intro' }).where(eq(workspaces.id, ann.uid));
        team = await teamOf(ann, 'Acme');
        await api.db.insert(workspaceMembers).values([
          { workspaceId: team.id, userId: bob.uid, role: 'admin' },
          { workspaceId: team.id, userId: cleo.uid, role: 'member' },
        ]);
      });

      it('renames a team workspace for its owner, answering it as the list shows it', async () => {
        await expectError(
          await rename(undefined, team.id, { name: 'Acme Inc' }),
          401,
          'Authentication required',
        );
        await expectError(await rename(ann, team.id, { name: '  ' }), 400, 'Give the workspace a name');
        await expectError(
          await rename(ann, team.id, { name: 'x'.repeat(81) }),
          400,
          'The name is too long: at most 80 characters',
        );
        const unknownField = await rename(ann, team.id, { name: 'Acme Inc', plan: 'pro' });
        expect(unknownField.status).toBe(400);
        for (const user of [bob, cleo]) {
          await expectError(
            await rename(user, team.id, { name: 'Ours now' }),
            403,
            WORKSPACE_MESSAGES.roleNeeded('workspace.manage'),
            'ROLE_REQUIRED',
          );
        }
        await expectError(await rename(dan, team.id, { name: 'Mine' }), 404, WORKSPACE_MESSAGES.notFound);
        await expectError(
          await rename(ann, '00000000-0000-4000-8000-000000000000', { name: 'Ghost' }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        await expectError(
          await rename(ann, ann.uid, { name: 'Me' }),
          409,
          WORKSPACE_MESSAGES.personalRename,
          'PERSONAL_WORKSPACE',
        );

        const res = await rename(ann, team.id, { name: '  Acme Inc  ' });
        expect(res.status).toBe(200);
        const { workspace } = (await res.json()) as { workspace: WorkspaceView };
        expect(workspace).toEqual({ ...team, name: 'Acme Inc', memberCount: 3 });
        expect((await list(ann)).find((w) => w.id === team.id)).toEqual(workspace);
        expect((await list(cleo)).find((w) => w.id === team.id)?.name).toBe('Acme Inc');
        const [entry] = await api.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.workspaceId, team.id), eq(auditLog.action, 'workspace.renamed')));
        expect(entry).toMatchObject({ userId: ann.uid, detail: { from: 'Acme', to: 'Acme Inc' } });
        team = workspace;
      });

      it('hands ownership over by a role change; the last owner can neither step down nor leave', async () => {
        await expectError(
          await setRole(ann, team.id, ann, 'admin'),
          409,
          WORKSPACE_MESSAGES.lastOwner,
          'LAST_OWNER',
        );
        await expectError(
          await call(`/api/workspaces/${team.id}/members/${ann.uid}`, {
            method: 'DELETE',
            token: ann.idToken,
          }),
          409,
          WORKSPACE_MESSAGES.lastOwner,
          'LAST_OWNER',
        );
        // Only an owner makes someone owner.
        await expectError(
          await setRole(bob, team.id, bob, 'owner'),
          403,
          WORKSPACE_MESSAGES.roleNeeded('workspace.manage'),
        );
        const made = await setRole(ann, team.id, bob, 'owner');
        expect(made.status).toBe(200);
        expect(((await made.json()) as { member: { role: string } }).member.role).toBe('owner');
        expect((await list(bob)).find((w) => w.id === team.id)?.role).toBe('owner');
        // Two owners: either may step down, and the new owner can rename the workspace.
        expect((await rename(bob, team.id, { name: 'Acme Inc' })).status).toBe(200);
        expect((await setRole(bob, team.id, bob, 'admin')).status).toBe(200);
        await expectError(await setRole(ann, team.id, ann, 'viewer'), 409, WORKSPACE_MESSAGES.lastOwner);
      });

      it('deletes a team workspace for its owner, and no row of it remains', async () => {
        await api.db.update(workspaces).set({ tier: 'solo' }).where(eq(workspaces.id, team.id));
        const invited = await call(`/api/workspaces/${team.id}/invitations`, {
          method: 'POST',
          token: ann.idToken,
          body: { email: `eve-${tag}@acme.com`, role: 'viewer' },
        });
        expect(invited.status).toBe(201);
        // One row of every kind the workspace owns, and of every kind those own.
        const added = await api.app.request('/api/domains', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ann.idToken}`,
            [WORKSPACE_HEADER]: team.id,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ domain: `team-${tag}.com` }),
        });
        expect(added.status).toBe(201);
        const [domain] = await api.db.select().from(domains).where(eq(domains.workspaceId, team.id));
        const domainId = domain?.id as string;
        const now = new Date();
        const record = { domainId, name: 'www', type: 'CNAME', ttl: 300, data: 'x.example', source: 'zone' };
        await api.db.insert(zoneRecords).values({ ...record, firstSeenAt: now, lastSeenAt: now });
        await api.db.insert(zoneRecordChanges).values({ ...record, at: now, change: 'added' });
        const [scan] = await api.db
          .insert(scans)
          .values({ workspaceId: team.id, domainId, domain: domain?.domain as string, status: 'pending' })
          .returning();
        await api.db.insert(findings).values({
          workspaceId: team.id,
          domain: domain?.domain as string,
          key: 'k',
          subdomain: `old.${domain?.domain}`,
          latest: {} as never,
          firstSeenAt: now,
          lastSeenAt: now,
        });
        const [webhook] = await api.db
          .insert(webhooks)
          .values({
            workspaceId: team.id,
            url: 'https://hooks.example.invalid/t',
            format: 'json',
            secret: 'whsec_t',
          })
          .returning();
        await api.db
          .insert(webhookDeliveries)
          .values({ webhookId: webhook?.id as string, scanId: scan?.id, kind: 'changes', payload: {} });
        await api.db.insert(apiKeys).values({
          workspaceId: team.id,
          createdBy: ann.uid,
          name: 'ci',
          prefix: 'dw_t',
          hash: `hash-${tag}`,
        });
        const [connection] = await api.db
          .insert(dnsConnections)
          .values({
            workspaceId: team.id,
            provider: 'cloudflare',
            label: 'l',
            credentialSealed: 's',
            credentialHint: 'h',
          })
          .returning();
        await api.db
          .insert(dnsConnectionZones)
          .values({ connectionId: connection?.id as string, zone: domain?.domain as string, domainId });
        await api.db
          .insert(rateLimits)
          .values({ key: `api:${team.id}`, count: 1, resetAt: new Date(now.getTime() + 3_600_000) });
        // A queued scan of the workspace; far in the future, so the worker does not run it first.
        const worker = await startWorker(api.database, pino({ level: 'silent' }), {});
        await worker.queue.enqueue(scan?.id as string, 3600);
        await worker.stop();

        await expectError(await remove(undefined, team.id), 401, 'Authentication required');
        await expectError(
          await remove(bob, team.id),
          403,
          WORKSPACE_MESSAGES.roleNeeded('workspace.manage'),
          'ROLE_REQUIRED',
        );
        await expectError(
          await remove(cleo, team.id),
          403,
          WORKSPACE_MESSAGES.roleNeeded('workspace.manage'),
        );
        await expectError(await remove(dan, team.id), 404, WORKSPACE_MESSAGES.notFound);
        await expectError(await remove(ann, 'no-such-workspace'), 404, WORKSPACE_MESSAGES.notFound);
        await expectError(
          await remove(ann, ann.uid),
          409,
          WORKSPACE_MESSAGES.personalDelete,
          'PERSONAL_WORKSPACE',
        );

        const res = await remove(ann, team.id);
        expect(res.status).toBe(204);

        // The deletion is in the owner's own log, beside no workspace: the workspace's log went with it.
        const [entry] = await api.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'workspace.deleted'), isNull(auditLog.workspaceId)));
        expect(entry).toMatchObject({ userId: ann.uid, detail: { workspaceId: team.id, name: 'Acme Inc' } });
        const ids = [team.id, domainId, scan?.id, webhook?.id, connection?.id] as string[];
        const everyTable = await queryRows<{ table_schema: string; table_name: string }>(
          api.db,
          sql`select table_schema, table_name from information_schema.tables
              where table_type = 'BASE TABLE' and table_schema in ('public', 'pgboss')`,
        );
        for (const { table_schema, table_name } of everyTable) {
          for (const id of ids) {
            const [found] = await queryRows<{ n: number }>(
              api.db,
              sql`select count(*)::int as n from ${sql.identifier(table_schema)}.${sql.identifier(table_name)} t
                  where t::text like ${`%${id}%`} and not (${table_name} = 'audit_log' and t::text like ${`%${entry?.id}%`})`,
            );
            expect(found?.n, `${table_schema}.${table_name} still holds ${id}`).toBe(0);
          }
        }
        // The people stay, in their own workspaces.
        for (const user of [ann, bob, cleo]) expect((await list(user)).map((w) => w.id)).toEqual([user.uid]);
        await expectError(
          await call(`/api/workspaces/${team.id}/members`, { token: bob.idToken }),
          404,
          WORKSPACE_MESSAGES.notFound,
        );
        await expectError(await remove(ann, team.id), 404, WORKSPACE_MESSAGES.notFound);
        const members = (await (
          await call(`/api/workspaces/${ann.uid}/members`, { token: ann.idToken })
        ).json()) as MembersResponse;
        expect(members.members.map((m) => m.userId)).toEqual([ann.uid]);
        expect(await api.db.select().from(workspaceInvitations)).toEqual([]);
      });

      it('an account refused for a team it alone owns is deleted once that team is deleted or handed over', async () => {
        const first = await teamOf(ann, 'Ann One', [cleo]);
        const second = await teamOf(ann, 'Ann Two', [dan]);
        await expectError(
          await call('/api/auth/account', { method: 'DELETE', token: ann.idToken }),
          409,
          WORKSPACE_MESSAGES.handOverFirst(['Ann One', 'Ann Two']),
          'TEAM_WORKSPACES_OWNED',
        );
        expect(WORKSPACE_MESSAGES.handOverFirst(['Ann One', 'Ann Two'])).toContain('“Ann One” and “Ann Two”');
        // One way: delete the workspace.
        expect((await remove(ann, first.id)).status).toBe(204);
        await expectError(
          await call('/api/auth/account', { method: 'DELETE', token: ann.idToken }),
          409,
          WORKSPACE_MESSAGES.handOverFirst(['Ann Two']),
        );
        // The other: make another member owner.
        expect((await setRole(ann, second.id, dan, 'owner')).status).toBe(200);
        expect((await call('/api/auth/account', { method: 'DELETE', token: ann.idToken })).status).toBe(204);
        expect((await list(dan)).find((w) => w.id === second.id)).toMatchObject({
          name: 'Ann Two',
          role: 'owner',
          memberCount: 1,
        });
      });
    },
  );
}
