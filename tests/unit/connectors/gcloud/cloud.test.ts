// The Google Cloud inventory against a loopback fake of Google's token endpoint, Compute Engine's
// aggregatedList calls and Cloud Storage: a service-account JWT signed RS256 for scopes each API
// takes, pageToken paging, 429 waited out, a deleted key refused in Google's words, nothing but
// GETs after the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudError } from '../../../../src/connectors/cloud/provider.ts';
import { gcloud } from '../../../../src/connectors/gcloud/cloud.ts';
import {
  GCLOUD_PROJECT,
  type GoogleCloudFake,
  startGoogleCloudFake,
} from '../../../fixtures/cloud/gcloud.ts';

describe('Google Cloud inventory', () => {
  let fake: GoogleCloudFake;
  beforeAll(async () => {
    fake = await startGoogleCloudFake({ pageSize: 2 });
    for (let i = 0; i < 3; i++)
      fake.world.addresses.push({ region: 'europe-west1', name: `ip-${i}`, address: `127.0.80.${i}` });
    fake.world.addresses.push({
      region: 'europe-west1',
      name: 'internal',
      address: '10.0.0.9',
      type: 'INTERNAL',
    });
    for (let i = 0; i < 3; i++)
      fake.world.instances.push({
        zone: 'europe-west1-b',
        name: `vm-${i}`,
        natIP: `127.0.81.${i}`,
        ipv6: i === 0 ? 'fd00:81::1' : undefined,
      });
    fake.world.forwardingRules.push(
      { region: 'us-central1', name: 'lb', ip: '127.0.82.1' },
      { region: 'us-central1', name: 'ilb', ip: '10.0.0.10', scheme: 'INTERNAL' },
    );
    fake.world.buckets.push(
      { name: 'acme-assets', location: 'EU' },
      { name: 'acme-logs', location: 'EU' },
      { name: 'www.acme.test', location: 'US' },
    );
  });
  afterAll(() => fake?.close());
  const options = () => ({ env: fake.env, maxRetries: 2, retryBaseMs: 10 });

  it('reads addresses, instances, forwarding rules and buckets, page after page', async () => {
    fake.requests.length = 0;
    const snapshot = await gcloud.read({ serviceAccountKey: fake.serviceAccountKey }, options());
    expect(snapshot.accounts).toEqual([GCLOUD_PROJECT]);
    expect(snapshot.addresses.map((a) => `${a.type} ${a.address}`).sort()).toEqual(
      [
        'address 127.0.80.0',
        'address 127.0.80.1',
        'address 127.0.80.2',
        'instance 127.0.81.0',
        'instance 127.0.81.1',
        'instance 127.0.81.2',
        'instance fd00:81::1',
        'forwarding-rule 127.0.82.1',
      ].sort(),
    );
    expect(snapshot.resources.map((r) => r.host)).toEqual([
      'acme-assets.storage.googleapis.com',
      'acme-logs.storage.googleapis.com',
      'www.acme.test.storage.googleapis.com',
      // Named like a domain: served as that name through a CNAME to c.storage.googleapis.com.
      'www.acme.test',
    ]);
    // Four addresses at two a page: two pages; three buckets: two.
    expect(fake.requests.filter((r) => r.path.includes('/aggregated/addresses'))).toHaveLength(2);
    expect(fake.requests.filter((r) => r.path.startsWith('/storage/v1/b'))).toHaveLength(2);
    const [token, ...rest] = fake.requests;
    expect(token).toMatchObject({ method: 'POST', path: '/token' });
    expect(rest.every((r) => r.method === 'GET')).toBe(true);
  });

  it('names the rights the key has beyond reading, from testIamPermissions', async () => {
    const key = { serviceAccountKey: fake.serviceAccountKey };
    const snapshot = await gcloud.read(key, options());
    expect(await gcloud.unneededRights?.(key, snapshot, options())).toEqual([]);
    fake.world.granted = ['compute.instances.delete', 'storage.buckets.delete', 'compute.instances.list'];
    expect(await gcloud.unneededRights?.(key, snapshot, options())).toEqual([
      'compute.instances.delete',
      'storage.buckets.delete',
    ]);
    fake.world.granted = [];
  });

  it('waits out a 429', async () => {
    fake.faults.push({ status: 429, retryAfter: '0', path: /instances/ });
    const snapshot = await gcloud.read({ serviceAccountKey: fake.serviceAccountKey }, options());
    expect(snapshot.addresses).toHaveLength(8);
    expect(fake.faults).toEqual([]);
  });

  it("refuses a deleted key in Google's words, and a key sending us elsewhere before any call", async () => {
    const failure = await gcloud
      .check({ serviceAccountKey: fake.revokedServiceAccountKey }, options())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudError);
    expect(failure).toMatchObject({
      failure: 'credentials',
      message: 'Google Cloud did not accept the credential',
      detail: 'Google OAuth: invalid_grant: Invalid JWT Signature.',
    });
    const before = fake.requests.length;
    const elsewhere = JSON.stringify({
      ...JSON.parse(fake.serviceAccountKey),
      token_uri: 'http://169.254.169.254/token',
    });
    const refused = await gcloud.check({ serviceAccountKey: elsewhere }, options()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'credentials' });
    expect((refused as Error).message).toMatch(/token_uri is not Google's token endpoint/);
    expect(fake.requests.length).toBe(before);
  });
});
