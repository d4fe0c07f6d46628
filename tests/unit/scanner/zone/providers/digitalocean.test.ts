import { afterAll, beforeAll, describe } from 'vitest';
import { digitalocean } from '../../../../../src/scanner/zone/providers/digitalocean.ts';
import { startDigitalOceanFake } from '../../../../fixtures/dns-providers/digitalocean.ts';
import type { FakeProvider } from '../../../../fixtures/dns-providers/fake-server.ts';
import { providerContract, SAMPLE, ZONE } from './contract.ts';

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
});
