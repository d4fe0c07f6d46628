import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../../src/connectors/dns/provider.ts';
import { digitalocean } from '../../../../../src/scanner/zone/providers/digitalocean.ts';
import { startDigitalOceanFake } from '../../../../fixtures/dns-providers/digitalocean.ts';
import type { FakeProvider } from '../../../../fixtures/dns-providers/fake-server.ts';
import { pagingGuard, providerContract, SAMPLE, ZONE } from './contract.ts';

const token = 'dop_v1_fixture0123456789abcdef0123456789abcdef';
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startDigitalOceanFake({ token, pageSize: 4 });
  fake.zones.set(ZONE, [...SAMPLE]);
  fake.zones.set('other.test', []);
});
afterAll(async () => {
  await fake?.close();
});

describe('DigitalOcean', () => {
  providerContract(() => ({
    fake: () => fake,
    provider: digitalocean,
    credentials: { token },
    badCredentials: { token: 'dop_v1_revoked00000000000000000000000000000000' },
    refusal: /^DigitalOcean: Unable to authenticate you$/,
    pageSize: 4,
  }));

  pagingGuard(
    () => ({
      fake: () => fake,
      provider: digitalocean,
      credentials: { token },
      badCredentials: { token: '' },
      refusal: /./,
      pageSize: 4,
    }),
    /\/records/,
    JSON.stringify({
      domain_records: [],
      links: { pages: { next: `/v2/domains/${ZONE}/records?per_page=200` } },
    }),
    /^DigitalOcean API sent the same page as the next one$/,
  );
});

describe('DigitalOcean answers', () => {
  it('an answer larger than the limit is refused, not read whole', async () => {
    const error = await digitalocean
      .listZones({ token }, { baseUrl: fake.url, env: {}, maxBodyBytes: 64 })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('malformed');
    expect((error as Error).message).toBe('DigitalOcean sent an answer DangleWatch cannot read');
    expect((error as ProviderError).detail).toBe('digitalocean API sent an answer larger than 64 bytes');
  });
});

describe('DigitalOcean behind another base URL', () => {
  it('follows links.pages.next on the base URL, never to the host the link names', async () => {
    const proxied = await startDigitalOceanFake({
      token,
      pageSize: 3,
      linkOrigin: 'https://api.digitalocean.com',
    });
    try {
      proxied.zones.set(ZONE, [...SAMPLE]);
      let read = 0;
      for await (const _ of digitalocean.readZone({ token }, ZONE, { baseUrl: proxied.url, env: {} })) read++;
      expect(read).toBe(SAMPLE.length);
      expect(proxied.requests.map((r) => r.path)).toEqual([
        `/v2/domains/${ZONE}/records?per_page=200`,
        `/v2/domains/${ZONE}/records?page=2&per_page=3`,
        `/v2/domains/${ZONE}/records?page=3&per_page=3`,
      ]);
    } finally {
      await proxied.close();
    }
  });
});
