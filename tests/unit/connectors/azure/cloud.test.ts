// The Azure inventory against a loopback fake of Entra ID's token endpoint and Resource Manager
// (each list at the api-version its specification has): client credentials, nextLink paging on
// the management host only, 429 waited out, a refused secret in Entra ID's words, and nothing but
// GETs after the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { azure } from '../../../../src/connectors/azure/cloud.ts';
import { CloudError } from '../../../../src/connectors/cloud/provider.ts';
import { type AzureWorld, startAzureFake } from '../../../fixtures/cloud/azure.ts';
import type { FakeProvider } from '../../../fixtures/dns-providers/fake-server.ts';

const CREDS = {
  tenantId: 'contoso.onmicrosoft.com',
  clientId: 'c0ffee00-0000-4000-8000-000000000001',
  clientSecret: 'azure~secret~value',
};

describe('Azure inventory', () => {
  let fake: FakeProvider & { world: AzureWorld };
  beforeAll(async () => {
    fake = await startAzureFake({ ...CREDS, pageSize: 2 });
    const sub = fake.world.subscriptions[0] as string;
    fake.world.subscriptions.push('99999999-2222-4333-8444-555555555555');
    for (let i = 0; i < 5; i++)
      fake.world.publicIps.push({
        subscription: sub,
        name: `pip-${i}`,
        ip: `127.0.70.${i}`,
        location: 'westeurope',
        fqdn: i === 0 ? 'shop.westeurope.cloudapp.azure.com' : undefined,
      });
    fake.world.sites.push({ subscription: sub, name: 'acme-web', host: 'acme-web.azurewebsites.net' });
    fake.world.trafficManager.push({
      subscription: sub,
      name: 'acme-tm',
      fqdn: 'acme-tm.trafficmanager.net',
    });
    fake.world.storage.push(
      { subscription: '99999999-2222-4333-8444-555555555555', name: 'acmeassets' },
      { subscription: sub, name: 'acmerouted', routed: true },
    );
    fake.world.cdn.push(
      { subscription: sub, profile: 'edge', endpoint: 'acme-cdn', host: 'acme-cdn.azureedge.net' },
      {
        subscription: sub,
        profile: 'door',
        endpoint: 'acme-fd',
        host: 'acme-fd-abc123.z01.azurefd.net',
        frontDoor: true,
      },
    );
  });
  afterAll(() => fake?.close());
  const options = () => ({
    env: { AZURE_LOGIN_URL: fake.url, AZURE_MANAGEMENT_URL: fake.url },
    maxRetries: 2,
    retryBaseMs: 10,
  });

  it('reads every subscription: public IPs, sites, Traffic Manager, storage, CDN and Front Door, page after page', async () => {
    fake.requests.length = 0;
    const snapshot = await azure.read(CREDS, options());
    expect(snapshot.accounts).toEqual(fake.world.subscriptions);
    expect(snapshot.addresses.map((a) => a.address).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `127.0.70.${i}`),
    );
    expect(snapshot.resources.map((r) => `${r.type} ${r.host}`).sort()).toEqual(
      [
        'bucket acmeassets.blob.core.windows.net',
        'bucket acmeassets.z6.web.core.windows.net',
        'bucket acmerouted.blob.core.windows.net',
        'bucket acmerouted.z6.web.core.windows.net',
        'bucket acmerouted-internetrouting.blob.core.windows.net',
        'bucket acmerouted-microsoftrouting.blob.core.windows.net',
        'distribution acme-cdn.azureedge.net',
        'distribution acme-fd-abc123.z01.azurefd.net',
        'endpoint acme-tm.trafficmanager.net',
        'endpoint shop.westeurope.cloudapp.azure.com',
        'site acme-web.azurewebsites.net',
      ].sort(),
    );
    // Five public IPs at two a page: three pages.
    expect(
      fake.requests.filter((r) => r.path.includes('publicIPAddresses') && r.path.includes('11111111')),
    ).toHaveLength(3);
    const [token, ...rest] = fake.requests;
    expect(token).toMatchObject({ method: 'POST', path: '/contoso.onmicrosoft.com/oauth2/v2.0/token' });
    expect(rest.every((r) => r.method === 'GET')).toBe(true);
  });

  it('leaves a cancelled subscription, Disabled or Deleted, unread', async () => {
    const gone = ['22222222-2222-4333-8444-555555555555', '33333333-2222-4333-8444-555555555555'];
    fake.world.subscriptions.push(...gone);
    fake.world.states = { [gone[0] as string]: 'Disabled', [gone[1] as string]: 'Deleted' };
    fake.requests.length = 0;
    try {
      const snapshot = await azure.read(CREDS, options());
      expect(snapshot.accounts).not.toContain(gone[0]);
      expect(snapshot.accounts).not.toContain(gone[1]);
      expect(fake.requests.filter((r) => gone.some((id) => r.path.includes(id)))).toEqual([]);
    } finally {
      fake.world.subscriptions.splice(-2);
      fake.world.states = {};
    }
  });

  it('names the rights the principal has beyond reading: none for Reader, `*` for Contributor', async () => {
    const snapshot = await azure.read(CREDS, options());
    expect(await azure.unneededRights?.(CREDS, snapshot, options())).toEqual([]);
    fake.world.actions = ['*'];
    expect(await azure.unneededRights?.(CREDS, snapshot, options())).toEqual(['*']);
    fake.world.actions = ['*/read'];
  });

  it('waits out throttling', async () => {
    fake.faults.push(
      { status: 429, retryAfter: '0', path: /publicIPAddresses/ },
      { status: 503, path: /sites/ },
    );
    const snapshot = await azure.read(CREDS, options());
    expect(snapshot.addresses).toHaveLength(5);
    expect(fake.faults).toEqual([]);
  });

  it("says a refused secret is refused, in Entra ID's words", async () => {
    const failure = await azure
      .check({ ...CREDS, clientSecret: 'wrong' }, options())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudError);
    expect(failure).toMatchObject({
      failure: 'credentials',
      message: 'Microsoft Azure did not accept the credential',
      detail:
        'Microsoft Entra ID: invalid_client: AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
    });
  });
});
