// The DigitalOcean inventory against a loopback fake of its v2 API: paging by links.pages.next,
// GPU Droplets asked for apart, 429 waited out until its ratelimit-reset, a refused token in
// DigitalOcean's words, only GETs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudError } from '../../../../src/connectors/cloud/provider.ts';
import { digitalocean } from '../../../../src/connectors/digitalocean/cloud.ts';
import { type DigitalOceanWorld, startDigitalOceanCloudFake } from '../../../fixtures/cloud/digitalocean.ts';
import type { FakeProvider } from '../../../fixtures/dns-providers/fake-server.ts';

const TOKEN = 'dop_v1_cloud_inventory_0001';

describe('DigitalOcean inventory', () => {
  let fake: FakeProvider & { world: DigitalOceanWorld };
  beforeAll(async () => {
    fake = await startDigitalOceanCloudFake({ token: TOKEN, pageSize: 2 });
    for (let i = 0; i < 5; i++)
      fake.world.droplets.push({
        id: i,
        name: `web-${i}`,
        region: 'ams3',
        v4: [`127.0.30.${i}`],
        v6: i === 0 ? ['fd00:30::1'] : [],
      });
    for (let i = 0; i < 3; i++)
      fake.world.droplets.push({
        id: 10 + i,
        name: `gpu-${i}`,
        region: 'tor1',
        v4: [`127.0.33.${i}`],
        gpu: true,
      });
    fake.world.reservedIps.push({ ip: '127.0.31.1', region: 'ams3' });
    fake.world.reservedIpv6s.push({ ip: 'fd00:31::1', region: 'nyc3' });
    fake.world.loadBalancers.push({ id: 'lb-1', name: 'front', ip: '127.0.32.1', region: 'ams3' });
    fake.world.cdnEndpoints.push({
      id: 'cdn-1',
      origin: 'assets.ams3.digitaloceanspaces.com',
      endpoint: 'assets.ams3.cdn.digitaloceanspaces.com',
    });
    fake.world.apps.push({
      id: 'app-1',
      name: 'shop',
      defaultIngress: 'https://shop-abc12.ondigitalocean.app',
    });
  });
  afterAll(() => fake?.close());
  const options = () => ({ env: { DIGITALOCEAN_API_URL: fake.url }, maxRetries: 2, retryBaseMs: 10 });

  it('reads droplets, reserved IPv4 and IPv6 addresses, load balancers, Spaces behind CDN endpoints and apps, page after page', async () => {
    fake.requests.length = 0;
    const snapshot = await digitalocean.read({ token: TOKEN }, options());
    expect(snapshot.accounts).toEqual([fake.world.team]);
    expect(snapshot.addresses.map((a) => `${a.type} ${a.address}`).sort()).toEqual(
      [
        ...[0, 1, 2, 3, 4].map((i) => `droplet 127.0.30.${i}`),
        'droplet fd00:30::1',
        ...[0, 1, 2].map((i) => `droplet 127.0.33.${i}`),
        'reserved-ip 127.0.31.1',
        'reserved-ipv6 fd00:31::1',
        'load-balancer 127.0.32.1',
      ].sort(),
    );
    expect(snapshot.resources).toEqual([
      { type: 'bucket', host: 'assets.ams3.digitaloceanspaces.com', name: 'assets' },
      { type: 'endpoint', host: 'assets.ams3.cdn.digitaloceanspaces.com', name: 'assets' },
      { type: 'site', host: 'shop-abc12.ondigitalocean.app', name: 'shop' },
    ]);
    // Five droplets at two a page: three pages; then three GPU Droplets, listed apart: two more.
    expect(fake.requests.filter((r) => r.path.startsWith('/v2/droplets'))).toHaveLength(5);
    expect(fake.requests.filter((r) => r.path.includes('type=gpus'))).toHaveLength(2);
    expect(fake.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('waits out a 429 until its ratelimit-reset', async () => {
    fake.faults.push({ status: 429, path: /droplets/ });
    const started = Date.now();
    const snapshot = await digitalocean.read({ token: TOKEN }, options());
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(snapshot.addresses).toHaveLength(12);
    expect(fake.faults).toEqual([]);
  });

  it('says a refused token is refused, in its words', async () => {
    const failure = await digitalocean.check({ token: 'dop_v1_wrong' }, options()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudError);
    expect(failure).toMatchObject({
      failure: 'credentials',
      message: 'DigitalOcean did not accept the credential',
      detail: 'DigitalOcean: unauthorized: Unable to authenticate you',
    });
  });
});
