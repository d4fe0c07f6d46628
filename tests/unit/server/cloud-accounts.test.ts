// Cloud accounts through the API, against a loopback fake of AWS that speaks each service's wire
// format: a key is checked with one read, stored sealed, shown by its last four characters only;
// each sync records what the account holds, and what it let go stays in the inventory as once-held.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCloudSync } from '../../../src/core/cloud-accounts/scheduled-sync.ts';
import { NO_SECRETS_KEY } from '../../../src/core/connections/secrets.ts';
import { cloudAccounts, cloudInventory } from '../../../src/db/schema.ts';
import type { CloudAccountView, CloudInventoryView } from '../../../src/model/contract.ts';
import { type AwsFake, isReadAction, startAwsFake } from '../../fixtures/cloud/aws.ts';
import { type AzureWorld, startAzureFake } from '../../fixtures/cloud/azure.ts';
import { startDigitalOceanCloudFake } from '../../fixtures/cloud/digitalocean.ts';
import { type GoogleCloudFake, startGoogleCloudFake } from '../../fixtures/cloud/gcloud.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const KEY = { accessKeyId: 'AKIACLOUDROUTES9XYZ', secretAccessKey: 'route-test-secret-key' };
const logger = pino({ level: 'silent' });

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `cloud accounts on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let fake: AwsFake;
      let others: {
        digitalocean: FakeProvider;
        azure: FakeProvider & { world: AzureWorld };
        google: GoogleCloudFake;
      };
      const AZURE = {
        tenantId: 'acme.onmicrosoft.com',
        clientId: 'client-0001',
        clientSecret: 'azure-secret',
      };
      const env = () => ({
        ...fake.env,
        DIGITALOCEAN_API_URL: others.digitalocean.url,
        AZURE_LOGIN_URL: others.azure.url,
        AZURE_MANAGEMENT_URL: others.azure.url,
        ...others.google.env,
      });
      let keyless: ReturnType<typeof testApp>;
      const secrets = { key: randomBytes(32) };
      const syncs: string[] = [];
      beforeAll(async () => {
        fake = await startAwsFake({ ...KEY, pageSize: 2 });
        fake.world.elasticIps.push({ region: 'eu-west-1', ip: '127.0.20.1', allocationId: 'eipalloc-a' });
        fake.world.instances.push(
          { region: 'us-east-1', id: 'i-1', ip: '127.0.20.2' },
          { region: 'us-east-1', id: 'i-2', ip: '127.0.20.3' },
          { region: 'us-east-1', id: 'i-3', ip: '127.0.20.4' },
        );
        fake.world.buckets.push({ name: 'static-acme', region: 'us-east-1' });
        others = {
          digitalocean: await startDigitalOceanCloudFake({ token: 'dop_v1_routes_0042' }),
          azure: await startAzureFake(AZURE),
          google: await startGoogleCloudFake(),
        };
      });
      const api = apiSuite(backend, () => ({
        cloudAccounts: {
          secrets,
          cloudOptions: { env: env(), maxRetries: 1 },
          enqueueSync: async (id) => void syncs.push(id),
        },
      }));
      const { call } = api;
      const callKeyless = apiCaller({ request: (path, init) => keyless.request(path, init) });
      let ann: MintedUser;
      let bob: MintedUser;
      let accountId: string;
      const settings = () => ({ secrets, syncMinutes: 15, cloudOptions: { env: env(), maxRetries: 1 } });

      beforeAll(async () => {
        keyless = testApp(api.database, {
          auth: api.auth,
          cloudAccounts: { secrets: { key: undefined, reason: NO_SECRETS_KEY } },
        });
        ann = await api.signIn('ann', { email: 'ann@acme-cloud.com' }, { verify: true });
        bob = await api.signIn('bob', { email: 'bob@bob-cloud.com' }, { verify: true });
      });
      afterAll(async () => {
        await fake?.close();
        for (const other of Object.values(others ?? {})) await other.close();
      });

      const connect = (token: string, body: unknown) =>
        call('/api/cloud-accounts', { method: 'POST', token, body });

      it('needs a signed-in caller for every call', async () => {
        const id = '00000000-0000-4000-8000-000000000000';
        for (const [method, path] of [
          ['GET', '/api/cloud-accounts'],
          ['POST', '/api/cloud-accounts'],
          ['GET', `/api/cloud-accounts/${id}`],
          ['PATCH', `/api/cloud-accounts/${id}`],
          ['DELETE', `/api/cloud-accounts/${id}`],
          ['POST', `/api/cloud-accounts/${id}/sync`],
          ['GET', `/api/cloud-accounts/${id}/inventory`],
        ] as const) {
          await expectError(await call(path, { method }), 401, 'Authentication required');
        }
      });

      it('refuses bad input, and a key AWS refuses with AWS words, storing nothing', async () => {
        expect((await connect(ann.idToken, { provider: 'oracle', credentials: {} })).status).toBe(400);
        expect((await connect(ann.idToken, { provider: 'aws', credentials: { token: 'x' } })).status).toBe(
          400,
        );
        const refused = await connect(ann.idToken, {
          provider: 'aws',
          credentials: { accessKeyId: KEY.accessKeyId, secretAccessKey: 'not-the-secret' },
        });
        // The sentence is the message; AWS's own words come as the detail the card shows under it.
        const body = await expectError(refused, 400, 'AWS did not accept the credential', 'CLOUD_REFUSED');
        expect(body.details).toEqual([
          {
            path: 'provider',
            message:
              'DescribeRegions: SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
          },
        ]);
        expect(JSON.stringify(body)).not.toContain('not-the-secret');
        expect(await api.db.select().from(cloudAccounts)).toEqual([]);
      });

      it("connects Azure, Google Cloud and DigitalOcean with their own credentials, refused in each cloud's words", async () => {
        const refusedAzure = await connect(ann.idToken, {
          provider: 'azure',
          credentials: { ...AZURE, clientSecret: 'wrong' },
        });
        const azureBody = await expectError(
          refusedAzure,
          400,
          'Microsoft Azure did not accept the credential',
          'CLOUD_REFUSED',
        );
        expect(azureBody.details?.[0]?.message).toBe(
          'Microsoft Entra ID: invalid_client: AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        );
        const refusedGoogle = await connect(ann.idToken, {
          provider: 'gcloud',
          credentials: { serviceAccountKey: others.google.revokedServiceAccountKey },
        });
        const googleBody = await expectError(
          refusedGoogle,
          400,
          'Google Cloud did not accept the credential',
          'CLOUD_REFUSED',
        );
        expect(googleBody.details).toEqual([
          { path: 'provider', message: 'Google OAuth: invalid_grant: Invalid JWT Signature.' },
        ]);
        // Another cloud's credential shape is refused before any call.
        expect((await connect(ann.idToken, { provider: 'azure', credentials: { token: 'x' } })).status).toBe(
          400,
        );
        const made: Record<string, CloudAccountView> = {};
        for (const [provider, credentials] of [
          ['azure', AZURE],
          ['gcloud', { serviceAccountKey: others.google.serviceAccountKey }],
          ['digitalocean', { token: 'dop_v1_routes_0042' }],
        ] as const) {
          const res = await connect(ann.idToken, { provider, credentials });
          expect(res.status, provider).toBe(201);
          made[provider] = ((await res.json()) as { account: CloudAccountView }).account;
        }
        expect(made.azure).toMatchObject({ label: 'Microsoft Azure', credentialHint: '0001' });
        expect(made.gcloud).toMatchObject({ label: 'Google Cloud', credentialHint: '.com' });
        expect(made.digitalocean).toMatchObject({ label: 'DigitalOcean', credentialHint: '0042' });
        // A principal with Contributor is accepted; its read says which rights it does not need.
        others.azure.world.actions = ['*'];
        await runCloudSync(api.db, made.azure?.id as string, settings(), logger, new Date());
        const azure = await call(`/api/cloud-accounts/${made.azure?.id}`, { token: ann.idToken });
        expect(((await azure.json()) as { account: CloudAccountView }).account).toMatchObject({
          accounts: others.azure.world.subscriptions,
          unneededRights: ['*'],
          rightsChecked: true,
        });
        // DigitalOcean has no read that tells a token its scopes: the rights stay unchecked.
        await runCloudSync(api.db, made.digitalocean?.id as string, settings(), logger, new Date());
        const ocean = await call(`/api/cloud-accounts/${made.digitalocean?.id}`, { token: ann.idToken });
        expect(((await ocean.json()) as { account: CloudAccountView }).account).toMatchObject({
          lastSyncAt: expect.any(String),
          unneededRights: [],
          rightsChecked: false,
        });
        for (const account of Object.values(made))
          expect(
            (await call(`/api/cloud-accounts/${account.id}`, { method: 'DELETE', token: ann.idToken }))
              .status,
          ).toBe(204);
      });

      it('says it cannot store a key on a server without one, in words of no setting of the server', async () => {
        await expectError(
          await callKeyless('/api/cloud-accounts', {
            method: 'POST',
            token: ann.idToken,
            body: { provider: 'aws', credentials: KEY },
          }),
          503,
          'Cloud accounts are not set up on this server',
          'CLOUD_ACCOUNTS_UNAVAILABLE',
        );
      });

      it('connects a key: sealed, shown by its last four characters, its first read queued', async () => {
        fake.requests.length = 0;
        syncs.length = 0;
        const res = await connect(ann.idToken, { provider: 'aws', label: 'Production', credentials: KEY });
        expect(res.status).toBe(201);
        const { account } = (await res.json()) as { account: CloudAccountView };
        expect(account).toEqual({
          id: expect.any(String),
          provider: 'aws',
          label: 'Production',
          credentialHint: '9XYZ',
          createdAt: expect.any(String),
          lastSyncAt: null,
          syncError: null,
          syncErrorDetail: null,
          graceHours: 48,
          accounts: [],
          counts: { addresses: 0, resources: 0 },
          unneededRights: [],
          rightsChecked: false,
          disabled: null,
          answeredBy: 'ann@acme-cloud.com',
        });
        accountId = account.id;
        expect(syncs).toEqual([accountId]);
        const [row] = await api.db.select().from(cloudAccounts).where(eq(cloudAccounts.id, accountId));
        expect(row?.credentialSealed).not.toContain(KEY.secretAccessKey);
        expect(row?.credentialSealed).not.toContain(KEY.accessKeyId);
        expect(fake.requests.map((r) => r.action)).toEqual(['DescribeRegions']);
      });

      it('records what the account holds, and remembers what it let go', async () => {
        const first = new Date('2026-11-20T10:00:00Z');
        expect(await runCloudSync(api.db, accountId, settings(), logger, first)).toEqual({
          addresses: 4,
          resources: 4,
          accounts: ['123456789012'],
        });
        const got = await call(`/api/cloud-accounts/${accountId}`, { token: ann.idToken });
        const { account } = (await got.json()) as { account: CloudAccountView };
        expect(account).toMatchObject({
          lastSyncAt: first.toISOString(),
          accounts: ['123456789012'],
          counts: { addresses: 4, resources: 4 },
          // The key holds only the read policy: IAM's simulator is closed to it.
          unneededRights: [],
          rightsChecked: false,
        });
        // The Elastic IP is released; the next read no longer sees it.
        fake.world.elasticIps.length = 0;
        const second = new Date('2026-11-20T10:15:00Z');
        await runCloudSync(api.db, accountId, settings(), logger, second);
        const page = (await (
          await call(`/api/cloud-accounts/${accountId}/inventory?limit=2&type=elastic-ip`, {
            token: ann.idToken,
          })
        ).json()) as CloudInventoryView;
        expect(page).toEqual({
          readAt: second.toISOString(),
          items: [
            {
              kind: 'address',
              type: 'elastic-ip',
              value: '127.0.20.1',
              name: 'eipalloc-a',
              region: 'eu-west-1',
              firstSeenAt: first.toISOString(),
              lastSeenAt: first.toISOString(),
              held: false,
            },
          ],
          nextCursor: null,
          total: 1,
        });
        expect(fake.requests.filter((r) => !isReadAction(r.action))).toEqual([]);
      });

      it('names the writes a key may make once it may simulate its own policy, and keeps them through a failed ask', async () => {
        Object.assign(fake.world, { maySimulate: true, writeRights: ['s3:*'] });
        await runCloudSync(api.db, accountId, settings(), logger, new Date('2026-11-20T10:30:00Z'));
        const view = async () =>
          (
            (await (await call(`/api/cloud-accounts/${accountId}`, { token: ann.idToken })).json()) as {
              account: CloudAccountView;
            }
          ).account;
        const writes = ['s3:CreateBucket', 's3:DeleteBucket', 's3:PutBucketPolicy', 's3:PutObject'];
        expect(await view()).toMatchObject({ unneededRights: writes, rightsChecked: true });
        // IAM failing for good leaves the read a success and the last answer standing.
        for (let i = 0; i < 10; i++)
          fake.faults.push({ service: 'iam', status: 503, code: 'ServiceUnavailable' });
        await runCloudSync(api.db, accountId, settings(), logger, new Date('2026-11-20T10:45:00Z'));
        expect(await view()).toMatchObject({
          lastSyncAt: '2026-11-20T10:45:00.000Z',
          syncError: null,
          unneededRights: writes,
          rightsChecked: true,
        });
        fake.faults.length = 0;
        Object.assign(fake.world, { maySimulate: false, writeRights: [] });
        expect(fake.requests.filter((r) => !isReadAction(r.action))).toEqual([]);
      });

      it('pages the inventory as the records list does', async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const query: string = cursor ? `&cursor=${cursor}` : '';
          const res = await call(`/api/cloud-accounts/${accountId}/inventory?limit=3${query}`, {
            token: ann.idToken,
          });
          const page = (await res.json()) as CloudInventoryView;
          expect(page.total).toBe(8);
          seen.push(...page.items.map((i) => i.value));
          cursor = page.nextCursor;
          pages++;
        } while (cursor);
        expect(pages).toBe(3);
        expect(seen).toHaveLength(8);
        expect(new Set(seen).size).toBe(8);
        expect(seen).toContain('static-acme.s3.amazonaws.com');
        const filtered = (await (
          await call(`/api/cloud-accounts/${accountId}/inventory?q=20.3`, { token: ann.idToken })
        ).json()) as CloudInventoryView;
        expect(filtered.items.map((i) => i.value)).toEqual(['127.0.20.3']);
        expect(filtered.items[0]?.held).toBe(true);
        const bad = await call(`/api/cloud-accounts/${accountId}/inventory?cursor=nonsense`, {
          token: ann.idToken,
        });
        expect(bad.status).toBe(400);
      });

      it('changes the label and the grace period, within 0 to 720 hours', async () => {
        const patch = (body: unknown) =>
          call(`/api/cloud-accounts/${accountId}`, { method: 'PATCH', token: ann.idToken, body });
        const zero = await patch({ graceHours: 0, label: 'Prod' });
        expect(zero.status).toBe(200);
        expect(((await zero.json()) as { account: CloudAccountView }).account).toMatchObject({
          graceHours: 0,
          label: 'Prod',
        });
        expect((await patch({ graceHours: 721 })).status).toBe(400);
        // A blank field is no 0: refused with the range, as every value out of it.
        for (const graceHours of ['', null]) {
          const blank = await patch({ graceHours });
          expect(blank.status).toBe(400);
          expect(JSON.stringify(await blank.json())).toContain('a whole number of hours from 0 to 720');
        }
        expect((await patch({ graceHours: -1 })).status).toBe(400);
        expect((await patch({ graceHours: 2.5 })).status).toBe(400);
        expect((await patch({})).status).toBe(400);
        const max = await patch({ graceHours: 720 });
        expect(((await max.json()) as { account: CloudAccountView }).account.graceHours).toBe(720);
      });

      it('queues a sync on request (202), and says so where syncs do not run', async () => {
        syncs.length = 0;
        const res = await call(`/api/cloud-accounts/${accountId}/sync`, {
          method: 'POST',
          token: ann.idToken,
        });
        expect(res.status).toBe(202);
        expect(await res.json()).toMatchObject({ queued: true, account: { id: accountId } });
        expect(syncs).toEqual([accountId]);
      });

      it("keeps one workspace's accounts from another", async () => {
        const list = await call('/api/cloud-accounts', { token: bob.idToken });
        expect(await list.json()).toEqual({ accounts: [] });
        for (const [method, path] of [
          ['GET', `/api/cloud-accounts/${accountId}`],
          ['PATCH', `/api/cloud-accounts/${accountId}`],
          ['DELETE', `/api/cloud-accounts/${accountId}`],
          ['POST', `/api/cloud-accounts/${accountId}/sync`],
          ['GET', `/api/cloud-accounts/${accountId}/inventory`],
        ] as const) {
          const res = await call(path, {
            method,
            token: bob.idToken,
            body: method === 'PATCH' ? { graceHours: 1 } : undefined,
          });
          await expectError(res, 404, 'Cloud account not found', 'NOT_FOUND');
        }
      });

      it('disconnects: the credential and the inventory go at once', async () => {
        const res = await call(`/api/cloud-accounts/${accountId}`, { method: 'DELETE', token: ann.idToken });
        expect(res.status).toBe(204);
        expect(await api.db.select().from(cloudAccounts)).toEqual([]);
        expect(await api.db.select().from(cloudInventory)).toEqual([]);
        expect((await call(`/api/cloud-accounts/${accountId}`, { token: ann.idToken })).status).toBe(404);
      });
    },
  );
}
