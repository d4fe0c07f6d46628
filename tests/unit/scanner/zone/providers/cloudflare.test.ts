import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../../src/connectors/dns/provider.ts';
import { cloudflare } from '../../../../../src/scanner/zone/providers/cloudflare.ts';
import { startCloudflareFake } from '../../../../fixtures/dns-providers/cloudflare.ts';
import type { FakeProvider } from '../../../../fixtures/dns-providers/fake-server.ts';
import { pagingGuard, providerContract, SAMPLE, ZONE } from './contract.ts';

const apiToken = 'cf-fixture-token-0123456789abcdef0123456789';
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startCloudflareFake({ token: apiToken, pageSize: 4 });
  fake.zones.set(ZONE, [...SAMPLE]);
  fake.zones.set('other.test', []);
});
afterAll(async () => {
  await fake?.close();
});

describe('Cloudflare', () => {
  providerContract(() => ({
    fake: () => fake,
    provider: cloudflare,
    credentials: { apiToken },
    badCredentials: { apiToken: 'cf-revoked-token-000000000000000000000000' },
    refusal: /^Invalid access token \(code 9109\)$/,
    pageSize: 4,
  }));

  const cfCase = () => ({
    fake: () => fake,
    provider: cloudflare,
    credentials: { apiToken },
    badCredentials: { apiToken: '' },
    refusal: /./,
    pageSize: 4,
  });
  pagingGuard(
    cfCase,
    /dns_records/,
    JSON.stringify({
      success: true,
      errors: [],
      messages: [],
      result: [{ name: `a.${ZONE}`, type: 'A', content: '192.0.2.1', ttl: 1 }],
      result_info: { page: 1, per_page: 1, total_pages: 5 },
    }),
    /^Cloudflare sent page 1 after page 1$/,
  );

  it('reads pages to result_info.total_pages, without asking for an empty page', async () => {
    const before = fake.requests.length;
    for await (const _ of cloudflare.readZone({ apiToken }, ZONE, { baseUrl: fake.url, pageSize: 4 }));
    const paths = fake.requests.slice(before).map((r) => r.path);
    expect(paths.filter((p) => p.includes('/dns_records'))).toHaveLength(Math.ceil(SAMPLE.length / 4));
  });

  it('the SDK takes its base URL from CLOUDFLARE_API_URL', async () => {
    const zones = await cloudflare.listZones({ apiToken }, { env: { CLOUDFLARE_API_URL: fake.url } });
    expect(zones).toContain(ZONE);
    const error = await cloudflare
      .listZones({ apiToken }, { env: { CLOUDFLARE_API_URL: 'file:///etc/passwd' } })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      "CLOUDFLARE_API_URL must be an http(s) URL, got 'file:///etc/passwd'",
    );
    expect(error).not.toBeInstanceOf(ProviderError);
  });
});
