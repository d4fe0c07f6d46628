// Who answers for an outside account: the admin who connected an integration, a DNS connection or
// a cloud account answers for it, as for a webhook. Their removal, demotion or account deletion
// disables it (not deletes it), the card says why, the owners get one e-mail, nothing more is
// delivered or read through it, and an admin who re-enables it answers for it from then on.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueCloudAccounts } from '../../../src/core/cloud-accounts/scheduled-sync.ts';
import { deliverIntegration } from '../../../src/core/integrations/deliver.ts';
import { DEFAULT_INTEGRATION_URLS } from '../../../src/core/integrations/targets.ts';
import { claimTicketDeliveries, queueTicketSync } from '../../../src/core/integrations/tickets.ts';
import { createMailer } from '../../../src/core/mail/mailer.ts';
import {
  auditLog,
  cloudAccounts,
  dnsConnections,
  domains,
  findings,
  integrationDeliveries,
  integrations,
} from '../../../src/db/schema.ts';
import { CONNECTION_MESSAGES } from '../../../src/model/connections.ts';
import {
  type CloudAccountView,
  type ConnectionView,
  DEFAULT_SCAN_CONFIG,
} from '../../../src/model/contract.ts';
import type { IntegrationView } from '../../../src/model/integrations.ts';
import { startDigitalOceanCloudFake } from '../../fixtures/cloud/digitalocean.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { type PagerDutyFixture, startPagerDuty } from '../../fixtures/trackers/pagerduty.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

const ROUTING_KEY = `${'R'.repeat(28)}wxyz`;
const CF_TOKEN = 'cf-answerable-token-0042';
const DO_TOKEN = 'dop_v1_answerable_0042';
const logger = pino({ level: 'silent' });

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `who answers for a connection, on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let pd: PagerDutyFixture;
      let cloudflare: FakeProvider;
      let digitalocean: FakeProvider;
      const secrets = { key: randomBytes(32) };
      const outbox = mkdtempSync(join(tmpdir(), 'dw-answerable-'));
      const urls = () => ({
        ...DEFAULT_INTEGRATION_URLS,
        pagerduty: pd.url,
        allowPlainLoopback: true,
        timeoutMs: 1000,
      });
      beforeAll(async () => {
        pd = await startPagerDuty();
        pd.routingKeys.add(ROUTING_KEY);
        cloudflare = await startCloudflareFake({ token: CF_TOKEN });
        digitalocean = await startDigitalOceanCloudFake({ token: DO_TOKEN });
      });
      afterAll(async () => {
        await pd?.close();
        await cloudflare?.close();
        await digitalocean?.close();
        rmSync(outbox, { recursive: true, force: true });
      });
      const api = apiSuite(backend, () => ({
        publicUrl: 'https://dw.example',
        mailer: createMailer({ from: 'DangleWatch <dw@example>', outboxDir: outbox, logger }),
        integrations: { secrets, enqueue: async () => {}, urls: urls() },
        dnsConnections: {
          secrets,
          providerOptions: { env: { CLOUDFLARE_API_URL: cloudflare.url }, maxRetries: 0 },
          enqueueSync: async () => {},
        },
        cloudAccounts: {
          secrets,
          cloudOptions: { env: { DIGITALOCEAN_API_URL: digitalocean.url }, maxRetries: 1 },
          enqueueSync: async () => {},
        },
      }));
      const { call, tag } = api;
      const mailsTo = (to: string) =>
        readdirSync(outbox)
          .map((name) => readFileSync(join(outbox, name), 'utf8'))
          .filter((mail) => mail.toLowerCase().includes(`to: ${to.toLowerCase()}`))
          .map((mail) =>
            mail
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          );

      let olga: MintedUser;
      let mal: MintedUser;
      let team: Awaited<ReturnType<typeof insertTeam>>;
      let pager: IntegrationView;
      let zones: ConnectionView;
      let cloud: CloudAccountView;
      let pending: string;
      let gone: string;
      const farLater = () => new Date(Date.now() + 86_400_000);

      it('an admin who connects an integration, a DNS connection and a cloud account answers for each', async () => {
        olga = await api.signIn('olga', { email: `olga-${tag}@acme.com`, name: 'Olga' });
        mal = await api.signIn('mal', { email: `mal-${tag}@acme.com`, name: 'Mal' });
        team = await insertTeam(api, { name: 'Crew', tier: 'intro' }, [
          [olga, 'owner'],
          [mal, 'admin'],
        ]);
        const made = async <T>(path: string, body: unknown, key: string): Promise<T> => {
          const res = await team.as(mal, path, { method: 'POST', body });
          expect(res.status).toBe(201);
          return ((await res.json()) as Record<string, T>)[key] as T;
        };
        pager = await made<IntegrationView>(
          '/api/integrations',
          { kind: 'pagerduty', label: 'On call', credentials: { routingKey: ROUTING_KEY } },
          'integration',
        );
        zones = await made<ConnectionView>(
          '/api/dns-connections',
          { provider: 'cloudflare', label: 'Edge', credentials: { apiToken: CF_TOKEN } },
          'connection',
        );
        cloud = await made<CloudAccountView>(
          '/api/cloud-accounts',
          { provider: 'digitalocean', label: 'Droplets', credentials: { token: DO_TOKEN } },
          'account',
        );
        for (const view of [pager, zones, cloud]) {
          expect(view.disabled).toBeNull();
          expect(view.answeredBy).toBe(`Mal (mal-${tag}@acme.com)`);
        }
        // A monitored domain, whose findings' tickets wait to be filed, and a test queued while Mal was an admin.
        await api.db.insert(domains).values({
          workspaceId: team.id,
          domain: `crew-${tag}.com`,
          verificationToken: 'c'.repeat(24),
          scanConfig: DEFAULT_SCAN_CONFIG,
          status: 'verified',
        });
        expect((await team.as(mal, `/api/integrations/${pager.id}/test`, { method: 'POST' })).status).toBe(
          202,
        );
        const [queued] = await api.db
          .select()
          .from(integrationDeliveries)
          .where(eq(integrationDeliveries.integrationId, pager.id));
        pending = queued?.id as string;
      });

      it('regression: removing that admin disables all three, each saying why, and mails the owner once naming them', async () => {
        // Olga removes Mal.
        expect(
          (await team.as(olga, `/api/workspaces/${team.id}/members/${mal.uid}`, { method: 'DELETE' })).status,
        ).toBe(204);
        gone = CONNECTION_MESSAGES.answererGone(`Mal (mal-${tag}@acme.com)`);
        const listed = async () => ({
          integrations: (
            (await (await team.as(olga, '/api/integrations')).json()) as {
              integrations: IntegrationView[];
            }
          ).integrations,
          connections: (
            (await (await team.as(olga, '/api/dns-connections')).json()) as {
              connections: ConnectionView[];
            }
          ).connections,
          accounts: (
            (await (await team.as(olga, '/api/cloud-accounts')).json()) as {
              accounts: CloudAccountView[];
            }
          ).accounts,
        });
        const after = await listed();
        expect(after.integrations.map((i) => i.disabled?.reason)).toEqual([gone]);
        expect(after.connections.map((c) => c.disabled?.reason)).toEqual([gone]);
        expect(after.accounts.map((a) => a.disabled?.reason)).toEqual([gone]);

        // One e-mail to the owner, naming all three and where each is re-enabled.
        const [mail, ...more] = mailsTo(`olga-${tag}@acme.com`);
        expect(more).toEqual([]);
        expect(mail).toContain('Subject: 3 connections of Crew were disabled');
        for (const words of ['On call (pagerduty)', 'Edge (cloudflare DNS)', 'Droplets (digitalocean)', gone])
          expect(mail).toContain(words);
        for (const tab of ['integrations', 'dns', 'cloud'])
          expect(mail).toContain(
            `https://dw.example/dashboard?section=settings&tab=${tab}&workspace=${team.id}`,
          );
      });

      it('regression: a disabled integration gets no deliveries, and a disabled connection or account is not read', async () => {
        // Nothing more goes out through the integration: the queued test fails saying why, and a
        // new finding's ticket is not claimed for delivery.
        const alertsBefore = pd.alerts.size;
        const deps = { secrets, urls: urls(), publicUrl: 'https://dw.example', logger };
        expect(await deliverIntegration(api.db, pending, deps)).toBe('failed');
        const [log] = await api.db
          .select()
          .from(integrationDeliveries)
          .where(eq(integrationDeliveries.id, pending));
        expect(log?.error).toBe(`The integration was disabled: ${gone}`);
        expect(pd.alerts.size).toBe(alertsBefore);
        const now = new Date();
        const [finding] = await api.db
          .insert(findings)
          .values({
            workspaceId: team.id,
            domain: `crew-${tag}.com`,
            key: 'a'.repeat(64),
            subdomain: `old.crew-${tag}.com`,
            latest: {
              subdomain: `old.crew-${tag}.com`,
              recordType: 'CNAME',
              target: 'gone.herokuapp.com',
              service: 'Heroku',
              status: 'claimable',
              risk: 'high',
              evidence: ['NXDOMAIN'],
              explanation: 'The app is gone.',
              proofOfConcept: 'Create the app.',
              remediation: 'Remove the record.',
            },
            firstSeenAt: now,
            lastSeenAt: now,
          } as typeof findings.$inferInsert)
          .returning();
        await queueTicketSync(api.db, team.id, [finding?.id as string], { now: new Date() });
        const claimed = await claimTicketDeliveries(api.db);
        expect(claimed.filter((d) => d.workspaceId === team.id)).toEqual([]);

        // Nor is anything read: the connection and the account refuse a sync, the schedule skips them.
        for (const [path, noun] of [
          [`/api/dns-connections/${zones.id}/sync`, 'DNS connection'],
          [`/api/cloud-accounts/${cloud.id}/sync`, 'cloud account'],
        ] as const) {
          await expectError(
            await team.as(olga, path, { method: 'POST' }),
            409,
            CONNECTION_MESSAGES.disabled(noun),
            'CONNECTION_DISABLED',
          );
        }
        expect(await dueCloudAccounts(api.db, farLater(), 15)).not.toContain(cloud.id);
        await expectError(
          await team.as(olga, `/api/integrations/${pager.id}/test`, { method: 'POST' }),
          409,
          CONNECTION_MESSAGES.disabled('integration'),
          'CONNECTION_DISABLED',
        );
      });

      it('an admin re-enables each with PATCH { enabled: true } and answers for it from then on; what waited goes out', async () => {
        for (const [path, key] of [
          [`/api/integrations/${pager.id}`, 'integration'],
          [`/api/dns-connections/${zones.id}`, 'connection'],
          [`/api/cloud-accounts/${cloud.id}`, 'account'],
        ] as const) {
          await expectError(
            await team.as(olga, path, { method: 'PATCH', body: { enabled: false } }),
            400,
            CONNECTION_MESSAGES.enableOnly,
          );
          const res = await team.as(olga, path, { method: 'PATCH', body: { enabled: true } });
          expect(res.status).toBe(200);
          const view = ((await res.json()) as Record<string, { disabled: unknown; answeredBy: string }>)[key];
          expect(view?.disabled).toBeNull();
          expect(view?.answeredBy).toBe(`Olga (olga-${tag}@acme.com)`);
        }
        const [pagerRow] = await api.db.select().from(integrations).where(eq(integrations.id, pager.id));
        const [zonesRow] = await api.db.select().from(dnsConnections).where(eq(dnsConnections.id, zones.id));
        const [cloudRow] = await api.db.select().from(cloudAccounts).where(eq(cloudAccounts.id, cloud.id));
        expect([pagerRow?.createdBy, zonesRow?.answeredBy, cloudRow?.answeredBy]).toEqual([
          olga.uid,
          olga.uid,
          olga.uid,
        ]);
        const enabledAudits = await api.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(and(eq(auditLog.workspaceId, team.id), eq(auditLog.userId, olga.uid)));
        expect(
          enabledAudits
            .map((a) => a.action)
            .filter((a) => a.endsWith('.enabled'))
            .sort(),
        ).toEqual(['cloud.enabled', 'dns.enabled', 'integration.enabled']);
        // The waiting ticket is claimed again once the integration is live.
        expect((await claimTicketDeliveries(api.db)).filter((d) => d.workspaceId === team.id)).toHaveLength(
          1,
        );
        expect(await dueCloudAccounts(api.db, farLater(), 15)).toContain(cloud.id);
      });

      it('regression: demotion below admin and account deletion disable what that admin connected, each saying why', async () => {
        const owen = await api.signIn('owen', { email: `owen-${tag}@acme.com`, name: 'Owen' });
        const ned = await api.signIn('ned', { email: `ned-${tag}@acme.com`, name: 'Ned' });
        const pia = await api.signIn('pia', { email: `pia-${tag}@acme.com`, name: 'Pia' });
        const team = await insertTeam(api, { name: 'Deck', tier: 'intro' }, [
          [owen, 'owner'],
          [ned, 'admin'],
          [pia, 'admin'],
        ]);
        const connect = async (user: MintedUser, label: string) => {
          const res = await team.as(user, '/api/integrations', {
            method: 'POST',
            body: { kind: 'pagerduty', label, credentials: { routingKey: ROUTING_KEY } },
          });
          expect(res.status).toBe(201);
          return ((await res.json()) as { integration: IntegrationView }).integration;
        };
        const nedsPager = await connect(ned, 'Ned pager');
        const piasPager = await connect(pia, 'Pia pager');
        const owensPager = await connect(owen, 'Owen pager');
        const reasons = async () =>
          Object.fromEntries(
            (
              (await (await team.as(owen, '/api/integrations')).json()) as { integrations: IntegrationView[] }
            ).integrations.map((i) => [i.id, i.disabled?.reason ?? null]),
          );

        expect(
          (
            await team.as(owen, `/api/workspaces/${team.id}/members/${ned.uid}`, {
              method: 'PATCH',
              body: { role: 'member' },
            })
          ).status,
        ).toBe(200);
        expect(await reasons()).toEqual({
          [nedsPager.id]: CONNECTION_MESSAGES.answererDemoted(`Ned (ned-${tag}@acme.com)`, 'member'),
          [piasPager.id]: null,
          [owensPager.id]: null,
        });
        expect(mailsTo(`owen-${tag}@acme.com`).at(-1)).toContain(
          'Subject: An integration of Deck was disabled',
        );

        expect((await call('/api/auth/account', { method: 'DELETE', token: pia.idToken })).status).toBe(204);
        expect((await reasons())[piasPager.id]).toBe(
          CONNECTION_MESSAGES.answererGone(`Pia (pia-${tag}@acme.com)`),
        );
        expect((await reasons())[owensPager.id]).toBeNull();
        expect(mailsTo(`owen-${tag}@acme.com`)).toHaveLength(2);
      });
    },
  );
}
