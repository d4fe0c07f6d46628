import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../../src/connectors/dns/provider.ts';
import { GOOGLE_TOKEN_URL } from '../../../../../src/connectors/gcloud/google-api.ts';
import { gcloud } from '../../../../../src/scanner/zone/providers/gcloud.ts';
import { type GoogleFake, startGoogleFake } from '../../../../fixtures/dns-providers/gcloud.ts';
import { pagingGuard, providerContract, SAMPLE, ZONE } from './contract.ts';

let fake: GoogleFake;

beforeAll(async () => {
  fake = await startGoogleFake({ pageSize: 4 });
  fake.zones.set(ZONE, [...SAMPLE]);
  fake.zones.set('other.test', []);
});
afterAll(async () => {
  await fake?.close();
});

describe('Google Cloud DNS', () => {
  providerContract(() => ({
    fake: () => fake,
    provider: gcloud,
    credentials: { serviceAccountJson: fake.serviceAccountJson },
    badCredentials: { serviceAccountJson: fake.revokedServiceAccountJson },
    refusal: /^Google OAuth: invalid_grant: Invalid JWT Signature\.$/,
    pageSize: 4,
    env: { GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl },
    allowedPosts: /^\/token$/,
  }));

  pagingGuard(
    () => ({
      fake: () => fake,
      provider: gcloud,
      credentials: { serviceAccountJson: fake.serviceAccountJson },
      badCredentials: { serviceAccountJson: '' },
      refusal: /./,
      pageSize: 4,
      env: { GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl },
    }),
    /\/rrsets/,
    JSON.stringify({ rrsets: [], nextPageToken: 'again' }),
    /^Google Cloud DNS sent the same page token twice$/,
  );

  it('never posts the key to a token_uri of the JSON that is not Google’s', async () => {
    const before = fake.requests.length;
    const hostile = JSON.stringify({
      ...JSON.parse(fake.serviceAccountJson),
      token_uri: 'http://169.254.169.254/token',
    });
    for (const env of [{}, { GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl }]) {
      const error = await gcloud
        .listZones({ serviceAccountJson: hostile }, { baseUrl: fake.url, env })
        .catch((e: Error) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as Error).message).toBe(
        `DangleWatch cannot use this key: the key's token_uri is not Google's token endpoint (${GOOGLE_TOKEN_URL})`,
      );
    }
    expect(fake.requests.length).toBe(before);
  });

  it('a key that is not a service-account JSON is refused without echoing it', async () => {
    for (const [json, message] of [
      [
        '{"private_key": "-----BEGIN PRIVATE KEY-----secret',
        'DangleWatch cannot use this key: the service-account key is not JSON',
      ],
      [
        JSON.stringify({ type: 'authorized_user', private_key: 'secret' }),
        'DangleWatch cannot use this key: the service-account key lacks a valid type',
      ],
    ] as const) {
      const error = await gcloud
        .listZones({ serviceAccountJson: json }, { baseUrl: fake.url })
        .catch((e: Error) => e);
      expect((error as ProviderError).failure).toBe('credentials');
      expect((error as Error).message).toBe(message);
    }
  });
});
