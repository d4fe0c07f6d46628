import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  cloudAccounts,
  dnsConnections,
  domains,
  findings,
  integrations,
  scans,
  webhooks,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import {
  can,
  WORKSPACE_HEADER,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLES,
  type WorkspaceAction,
  type WorkspaceRole,
} from '../../../src/model/workspaces.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

/** The ids one workspace holds, one of each kind a route can name. */
interface Ids {
  domain: string;
  scan: string;
  finding: string;
  webhook: string;
  key: string;
  connection: string;
  integration: string;
  cloudAccount: string;
  /** A team workspace, and another one its owner may delete (the matrix goes on in the first). */
  workspace: string;
  doomed: string;
  invitation: string;
  /** A member of the workspace (their role is set to what it is), and an account not in it. */
  member: string;
  stranger: string;
}

/**
 * Every workspace-scoped route, the action it needs, and how to call it. The first test checks
 * this list against the app's own routes, so a new route cannot be left out.
 */
const ROUTES: {
  route: string;
  action: WorkspaceAction;
  path: (ids: Ids) => string;
  body?: unknown;
  /** The route names an id: another workspace's answers 404. */
  names?: boolean;
  /** Of the account, not of one workspace: anyone signed in, in no workspace of the caller's. */
  account?: boolean;
}[] = [
  { route: 'GET /api/domains', action: 'read', path: () => '/api/domains' },
  {
    route: 'POST /api/domains',
    action: 'domains.write',
    path: () => '/api/domains',
    body: { domain: 'new.acme.com' },
  },
  {
    route: 'POST /api/domains/:id/verify',
    action: 'domains.write',
    path: (i) => `/api/domains/${i.domain}/verify`,
    names: true,
  },
  {
    route: 'PATCH /api/domains/:id',
    action: 'domains.write',
    path: (i) => `/api/domains/${i.domain}`,
    body: { scanConfig: DEFAULT_SCAN_CONFIG },
    names: true,
  },
  {
    route: 'GET /api/domains/:id/trend',
    action: 'read',
    path: (i) => `/api/domains/${i.domain}/trend`,
    names: true,
  },
  {
    route: 'PUT /api/domains/:id/zone-file',
    action: 'domains.write',
    path: (i) => `/api/domains/${i.domain}/zone-file`,
    names: true,
  },
  {
    route: 'GET /api/domains/:id/records',
    action: 'read',
    path: (i) => `/api/domains/${i.domain}/records`,
    names: true,
  },
  {
    route: 'POST /api/domains/:id/keep',
    action: 'domains.write',
    path: (i) => `/api/domains/${i.domain}/keep`,
    names: true,
  },
  {
    route: 'DELETE /api/domains/:id',
    action: 'domains.write',
    path: (i) => `/api/domains/${i.domain}`,
    names: true,
  },
  { route: 'GET /api/webhooks', action: 'webhooks.manage', path: () => '/api/webhooks' },
  {
    route: 'POST /api/webhooks',
    action: 'webhooks.manage',
    path: () => '/api/webhooks',
    body: { url: 'https://hooks.example.invalid/x' },
  },
  {
    route: 'PATCH /api/webhooks/:id',
    action: 'webhooks.manage',
    path: (i) => `/api/webhooks/${i.webhook}`,
    body: { enabled: true },
    names: true,
  },
  {
    route: 'DELETE /api/webhooks/:id',
    action: 'webhooks.manage',
    path: (i) => `/api/webhooks/${i.webhook}`,
    names: true,
  },
  {
    route: 'POST /api/webhooks/:id/test',
    action: 'webhooks.manage',
    path: (i) => `/api/webhooks/${i.webhook}/test`,
    names: true,
  },
  { route: 'GET /api/dns-connections', action: 'read', path: () => '/api/dns-connections' },
  {
    route: 'POST /api/dns-connections',
    action: 'dns-connections.manage',
    path: () => '/api/dns-connections',
    body: { provider: 'cloudflare', credentials: { apiToken: 'x' } },
  },
  {
    route: 'POST /api/dns-connections/:id/zones',
    action: 'dns-connections.manage',
    path: (i) => `/api/dns-connections/${i.connection}/zones`,
    body: { zone: 'acme.com' },
    names: true,
  },
  {
    route: 'POST /api/dns-connections/:id/sync',
    action: 'dns-connections.manage',
    path: (i) => `/api/dns-connections/${i.connection}/sync`,
    names: true,
  },
  {
    route: 'PATCH /api/dns-connections/:id',
    action: 'dns-connections.manage',
    path: (i) => `/api/dns-connections/${i.connection}`,
    body: { enabled: true },
    names: true,
  },
  {
    route: 'DELETE /api/dns-connections/:id',
    action: 'dns-connections.manage',
    path: (i) => `/api/dns-connections/${i.connection}`,
    names: true,
  },
  { route: 'GET /api/integrations', action: 'integrations.manage', path: () => '/api/integrations' },
  {
    route: 'POST /api/integrations',
    action: 'integrations.manage',
    path: () => '/api/integrations',
    body: { kind: 'pagerduty', credentials: { routingKey: 'r'.repeat(32) } },
  },
  {
    route: 'POST /api/integrations/jira/choices',
    action: 'integrations.manage',
    path: () => '/api/integrations/jira/choices',
    // An address that resolves nowhere: the allowed roles get Jira's refusal, never a role one.
    body: {
      siteUrl: 'https://jira.example.invalid',
      credentials: { email: 'ann@acme.com', apiToken: 'ATATT-matrix' },
    },
  },
  {
    route: 'GET /api/integrations/:id',
    action: 'integrations.manage',
    path: (i) => `/api/integrations/${i.integration}`,
    names: true,
  },
  {
    route: 'PATCH /api/integrations/:id',
    action: 'integrations.manage',
    path: (i) => `/api/integrations/${i.integration}`,
    body: { minStatus: 'claimable' },
    names: true,
  },
  {
    route: 'POST /api/integrations/:id/test',
    action: 'integrations.manage',
    path: (i) => `/api/integrations/${i.integration}/test`,
    names: true,
  },
  {
    route: 'GET /api/integrations/:id/deliveries',
    action: 'integrations.manage',
    path: (i) => `/api/integrations/${i.integration}/deliveries`,
    names: true,
  },
  {
    route: 'DELETE /api/integrations/:id',
    action: 'integrations.manage',
    path: (i) => `/api/integrations/${i.integration}`,
    names: true,
  },
  { route: 'GET /api/cloud-accounts', action: 'read', path: () => '/api/cloud-accounts' },
  {
    route: 'POST /api/cloud-accounts',
    action: 'cloud-accounts.manage',
    path: () => '/api/cloud-accounts',
    body: { provider: 'aws', credentials: { accessKeyId: 'AKIA', secretAccessKey: 'x' } },
  },
  {
    route: 'GET /api/cloud-accounts/:id',
    action: 'read',
    path: (i) => `/api/cloud-accounts/${i.cloudAccount}`,
    names: true,
  },
  {
    route: 'PATCH /api/cloud-accounts/:id',
    action: 'cloud-accounts.manage',
    path: (i) => `/api/cloud-accounts/${i.cloudAccount}`,
    body: { graceHours: 24 },
    names: true,
  },
  {
    route: 'POST /api/cloud-accounts/:id/sync',
    action: 'cloud-accounts.manage',
    path: (i) => `/api/cloud-accounts/${i.cloudAccount}/sync`,
    names: true,
  },
  {
    route: 'GET /api/cloud-accounts/:id/inventory',
    action: 'read',
    path: (i) => `/api/cloud-accounts/${i.cloudAccount}/inventory`,
    names: true,
  },
  {
    route: 'DELETE /api/cloud-accounts/:id',
    action: 'cloud-accounts.manage',
    path: (i) => `/api/cloud-accounts/${i.cloudAccount}`,
    names: true,
  },
  { route: 'GET /api/findings', action: 'read', path: () => '/api/findings' },
  {
    route: 'PATCH /api/findings/:id',
    action: 'findings.accept',
    path: (i) => `/api/findings/${i.finding}`,
    body: { accepted: true, note: 'known', until: 'record-changes' },
    names: true,
  },
  { route: 'GET /api/keys', action: 'api-keys.manage', path: () => '/api/keys' },
  { route: 'POST /api/keys', action: 'api-keys.manage', path: () => '/api/keys', body: { name: 'ci' } },
  {
    route: 'DELETE /api/keys/:id',
    action: 'api-keys.manage',
    path: (i) => `/api/keys/${i.key}`,
    names: true,
  },
  {
    route: 'POST /scan/api/v1/scan',
    action: 'scans.start',
    path: () => '/scan/api/v1/scan',
    body: { domain: 'acme.com', scanType: 'dangling-subdomains' },
  },
  {
    route: 'GET /scan/api/v1/scan/:id',
    action: 'read',
    path: (i) => `/scan/api/v1/scan/${i.scan}`,
    names: true,
  },
  {
    route: 'POST /scan/api/v1/scan/:id/cancel',
    action: 'scans.start',
    path: (i) => `/scan/api/v1/scan/${i.scan}/cancel`,
    names: true,
  },
  { route: 'GET /scan/api/v1/scans', action: 'read', path: () => '/scan/api/v1/scans' },
  { route: 'GET /scan/api/v1/scans/latest', action: 'read', path: () => '/scan/api/v1/scans/latest' },
  { route: 'GET /scan/api/v1/scans/stats', action: 'read', path: () => '/scan/api/v1/scans/stats' },
  { route: 'GET /scan/api/v1/export', action: 'read', path: () => '/scan/api/v1/export' },
  { route: 'GET /auth/billing', action: 'read', path: () => '/auth/billing' },
  { route: 'GET /api/billing/info', action: 'read', path: () => '/api/billing/info' },
  {
    route: 'POST /api/billing/create-checkout-session',
    action: 'workspace.billing',
    path: () => '/api/billing/create-checkout-session',
    body: {
      planId: 'intro',
      successUrl: 'http://localhost/dashboard/settings?tab=billing&success=true',
      cancelUrl: 'http://localhost/dashboard/settings?tab=billing&canceled=true',
    },
  },
  {
    route: 'POST /api/billing/create-portal-session',
    action: 'workspace.billing',
    path: () => '/api/billing/create-portal-session',
  },
  {
    route: 'POST /api/auth/billing/cancel',
    action: 'workspace.billing',
    path: () => '/api/auth/billing/cancel',
  },
  // The workspace calls name their workspace in the path.
  { route: 'GET /api/workspaces', action: 'read', path: () => '/api/workspaces', account: true },
  {
    route: 'POST /api/workspaces',
    action: 'read',
    path: () => '/api/workspaces',
    body: { name: 'Side project' },
    account: true,
  },
  {
    route: 'PATCH /api/workspaces/:id',
    action: 'workspace.manage',
    path: (i) => `/api/workspaces/${i.workspace}`,
    body: { name: 'Acme' },
    names: true,
  },
  {
    route: 'DELETE /api/workspaces/:id',
    action: 'workspace.manage',
    path: (i) => `/api/workspaces/${i.doomed}`,
    names: true,
  },
  {
    route: 'GET /api/workspaces/:id/members',
    action: 'read',
    path: (i) => `/api/workspaces/${i.workspace}/members`,
    names: true,
  },
  {
    route: 'GET /api/workspaces/:id/activity',
    action: 'read',
    path: (i) => `/api/workspaces/${i.workspace}/activity`,
    names: true,
  },
  {
    route: 'POST /api/workspaces/:id/invitations',
    action: 'members.manage',
    path: (i) => `/api/workspaces/${i.workspace}/invitations`,
    body: { email: 'new@acme.com', role: 'viewer' },
    names: true,
  },
  {
    route: 'DELETE /api/workspaces/:id/invitations/:invitationId',
    action: 'members.manage',
    path: (i) => `/api/workspaces/${i.workspace}/invitations/${i.invitation}`,
    names: true,
  },
  {
    route: 'PATCH /api/workspaces/:id/members/:userId',
    action: 'members.manage',
    path: (i) => `/api/workspaces/${i.workspace}/members/${i.member}`,
    body: { role: 'viewer' },
    names: true,
  },
  {
    // Someone else: leaving (one's own id) needs only to be a member.
    route: 'DELETE /api/workspaces/:id/members/:userId',
    action: 'members.manage',
    path: (i) => `/api/workspaces/${i.workspace}/members/${i.stranger}`,
    names: true,
  },
];

/** Routes of the account (not of a workspace) or without sign-in: outside the matrix, by name. */
const NOT_WORKSPACE_SCOPED =
  /^(GET|POST|PATCH|PUT|DELETE) (\/(health|ready|mailing-list)|\/auth\/(?!billing$)|\/api\/auth\/(?!billing\/cancel$)|\/api\/billing\/webhook$|\/alerts\/|\/api\/v1\/|\/scan\/health|\/api\/invitations)/;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `the authorisation matrix on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    // Each test walks every route, a request after another, each token verified by the emulator:
    // about 5 s on a quiet machine, four times that on a busy one, which must not fail it.
    { timeout: 120_000 },
    () => {
      const api = apiSuite(backend, {
        // A closed port: the TXT look-ups of verify answer at once, with nothing found.
        scanning: { queue: { enqueue: async () => {} }, queueUp: () => true, resolvers: ['127.0.0.1:9'] },
      });
      const { tag } = api;
      const team = `team-${tag}`;
      const doomed = `doomed-${tag}`;
      const otherTeam = `other-${tag}`;
      const members = {} as Record<WorkspaceRole, MintedUser>;
      let outsider: MintedUser;
      let teamIds: Ids;
      let otherIds: Ids;

      const request = (user: MintedUser, method: string, path: string, body?: unknown) =>
        api.app.request(path, {
          method,
          headers: {
            authorization: `Bearer ${user.idToken}`,
            [WORKSPACE_HEADER]: team,
            ...(body === undefined
              ? {}
              : { 'content-type': path.endsWith('/zone-file') ? 'text/plain' : 'application/json' }),
          },
          body: body === undefined ? (path.endsWith('/zone-file') ? '' : undefined) : JSON.stringify(body),
        });

      /** One of each kind of row, in the workspace given; `people` holds the team workspaces. */
      async function fill(
        workspaceId: string,
        name: string,
        people: { team: string; doomed: string; member: string; stranger: string },
      ): Promise<Ids> {
        const [domain] = await api.db
          .insert(domains)
          .values({
            workspaceId,
            domain: name,
            verificationToken: 'a'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const [scan] = await api.db
          .insert(scans)
          .values({ workspaceId, domainId: domain?.id, domain: name, status: 'pending' })
          .returning();
        const [finding] = await api.db
          .insert(findings)
          .values({
            workspaceId,
            domain: name,
            key: 'k',
            subdomain: `old.${name}`,
            latest: {} as never,
            firstSeenAt: new Date(),
            lastSeenAt: new Date(),
          })
          .returning();
        const [webhook] = await api.db
          .insert(webhooks)
          .values({ workspaceId, url: 'https://hooks.example.invalid/y', format: 'json', secret: 'whsec_y' })
          .returning();
        const [key] = await api.db
          .insert(apiKeys)
          .values({ workspaceId, name: 'k', prefix: 'dw_x', hash: `hash-${workspaceId}` })
          .returning();
        const [connection] = await api.db
          .insert(dnsConnections)
          .values({
            workspaceId,
            provider: 'cloudflare',
            label: 'l',
            credentialSealed: 's',
            credentialHint: 'h',
          })
          .returning();
        const [integration] = await api.db
          .insert(integrations)
          .values({
            workspaceId,
            kind: 'pagerduty',
            label: 'p',
            minStatus: 'likely',
            settings: {},
            credentialSealed: 's',
            credentialHint: 'h',
          })
          .returning();
        const [cloudAccount] = await api.db
          .insert(cloudAccounts)
          .values({ workspaceId, provider: 'aws', label: 'l', credentialSealed: 's', credentialHint: 'h' })
          .returning();
        const [invitation] = await api.db
          .insert(workspaceInvitations)
          .values({
            workspaceId: people.team,
            email: `invited-${name}@acme.com`,
            role: 'viewer',
            tokenHash: `token-${name}`,
            expiresAt: new Date(Date.now() + 86_400_000),
          })
          .returning();
        return {
          domain: domain?.id ?? '',
          scan: scan?.id ?? '',
          finding: finding?.id ?? '',
          webhook: webhook?.id ?? '',
          key: key?.id ?? '',
          connection: connection?.id ?? '',
          integration: integration?.id ?? '',
          cloudAccount: cloudAccount?.id ?? '',
          workspace: people.team,
          doomed: people.doomed,
          invitation: invitation?.id ?? '',
          member: people.member,
          stranger: people.stranger,
        };
      }

      beforeAll(async () => {
        for (const role of WORKSPACE_ROLES) {
          members[role] = await api.signIn(role, { email: `${role}@acme.com`, email_verified: true });
        }
        outsider = await api.signIn('out', { email: 'out@other.com' });
        // Every role in the team workspace, and in another one for the owner to delete.
        for (const id of [team, doomed]) {
          await api.db.insert(workspaces).values({ id, name: 'Acme' });
          await api.db
            .insert(workspaceMembers)
            .values(WORKSPACE_ROLES.map((role) => ({ workspaceId: id, userId: members[role].uid, role })));
        }
        await api.db.insert(workspaces).values({ id: otherTeam, name: 'Other' });
        await api.db
          .insert(workspaceMembers)
          .values({ workspaceId: otherTeam, userId: outsider.uid, role: 'owner' });
        teamIds = await fill(team, 'acme.com', {
          team,
          doomed,
          member: members.viewer.uid,
          stranger: outsider.uid,
        });
        otherIds = await fill(outsider.uid, 'other.com', {
          team: otherTeam,
          doomed: otherTeam,
          member: outsider.uid,
          stranger: members.viewer.uid,
        });
      });

      it('covers every workspace-scoped route of the app', () => {
        const routes = new Set(
          api.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`),
        );
        const scoped = [...routes].filter((route) => !NOT_WORKSPACE_SCOPED.test(route)).sort();
        expect(scoped).toEqual(ROUTES.map((r) => r.route).sort());
      });

      // Refusals first (they change nothing), then the roles allowed, the most able last so a
      // removal by one role does not hide what the next is allowed to do.
      for (const role of [...WORKSPACE_ROLES].reverse()) {
        it(`${role}: each route answers as the rule table says`, async () => {
          for (const route of ROUTES) {
            const [method] = route.route.split(' ') as [string];
            const res = await request(members[role], method, route.path(teamIds), route.body);
            const body =
              res.status === 204 ? undefined : ((await res.json()) as { code?: string; error?: string });
            if (can(role, route.action)) {
              expect(body?.code, `${role} ${route.route}: ${res.status} ${body?.error}`).not.toBe(
                'ROLE_REQUIRED',
              );
              expect(body?.error, `${role} ${route.route}`).not.toBe(WORKSPACE_MESSAGES.notFound);
            } else {
              expect(res.status, `${role} ${route.route}`).toBe(403);
              expect(body).toMatchObject({
                code: 'ROLE_REQUIRED',
                error: WORKSPACE_MESSAGES.roleNeeded(route.action),
              });
            }
          }
        });
      }

      it("another workspace's ids are not found, whatever the role", async () => {
        for (const route of ROUTES.filter((r) => r.names)) {
          const [method] = route.route.split(' ') as [string];
          const res = await request(members.owner, method, route.path(otherIds), route.body);
          expect(res.status, route.route).toBe(404);
        }
      });

      it('a workspace the caller is not in is not found, for every route', async () => {
        for (const route of ROUTES.filter((r) => !r.account)) {
          const [method] = route.route.split(' ') as [string];
          const res = await request(outsider, method, route.path(teamIds), route.body);
          expect(res.status, route.route).toBe(404);
          expect(((await res.json()) as { error: string }).error, route.route).toBe(
            WORKSPACE_MESSAGES.notFound,
          );
        }
        // The account's own calls answer, and the list holds none of the team's.
        const listed = await request(outsider, 'GET', '/api/workspaces');
        expect(listed.status).toBe(200);
        const { workspaces: mine } = (await listed.json()) as { workspaces: { id: string }[] };
        expect(mine.map((w) => w.id)).not.toContain(team);
        expect(mine.map((w) => w.id)).toContain(otherTeam);
      });

      it("the owner's deletion took the other team workspace, and only it", async () => {
        expect(await api.db.select().from(workspaces).where(eq(workspaces.id, doomed))).toEqual([]);
        const [kept] = await api.db.select().from(workspaces).where(eq(workspaces.id, team));
        expect(kept?.name).toBe('Acme');
      });
    },
  );
}
