import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../../src/connectors/dns/provider.ts';
import { route53 } from '../../../../../src/scanner/zone/providers/route53.ts';
import type { ZoneRecord } from '../../../../../src/scanner/zone/record.ts';
import type { FakeProvider } from '../../../../fixtures/dns-providers/fake-server.ts';
import { startRoute53Fake } from '../../../../fixtures/dns-providers/route53.ts';
import { pagingGuard, providerContract, SAMPLE, ZONE } from './contract.ts';

const accessKeyId = 'AKIAFIXTURE000000001';
const secretAccessKey = 'fixture/secret/0123456789abcdefghijklmnopqrstu';
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startRoute53Fake({ accessKeyId, secretAccessKey, pageSize: 4 });
  fake.zones.set(ZONE, [...SAMPLE]);
  fake.zones.set('other.test', []);
});
afterAll(async () => {
  await fake?.close();
});

async function collect(records: AsyncIterable<ZoneRecord>) {
  const out: ZoneRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

describe('Route 53', () => {
  providerContract(() => ({
    fake: () => fake,
    provider: route53,
    credentials: { accessKeyId, secretAccessKey },
    badCredentials: {
      accessKeyId: 'AKIAREVOKED000000000',
      secretAccessKey: 'revoked/secret/000000000000000000000000000',
    },
    refusal: /^InvalidClientTokenId: The security token included in the request is invalid\.$/,
    pageSize: 4,
  }));

  pagingGuard(
    () => ({
      fake: () => fake,
      provider: route53,
      credentials: { accessKeyId, secretAccessKey },
      badCredentials: { accessKeyId: '', secretAccessKey: '' },
      refusal: /./,
      pageSize: 4,
    }),
    /\/rrset/,
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListResourceRecordSetsResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ResourceRecordSets></ResourceRecordSets><IsTruncated>true</IsTruncated><NextRecordName>a.${ZONE}.</NextRecordName><NextRecordType>A</NextRecordType><MaxItems>4</MaxItems></ListResourceRecordSetsResponse>`,
    /^Route 53 sent the same next record twice$/,
  );

  it('a known key id with the wrong secret fails the signature check', async () => {
    const error = await route53
      .listZones(
        { accessKeyId, secretAccessKey: 'wrong/secret/0000000000000000000000000000' },
        { baseUrl: fake.url, maxRetries: 0 },
      )
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('credentials');
    expect((error as Error).message).toBe('Amazon Route 53 did not accept the credential');
    expect((error as ProviderError).detail).toMatch(
      /^SignatureDoesNotMatch: The request signature we calculated/,
    );
  });

  it('reads ALIAS records as the CNAMEs they behave like, with at most 300 record sets a call', async () => {
    const alias: ZoneRecord = {
      name: `assets.${ZONE}`,
      type: 'ALIAS',
      ttl: 60,
      data: 'assets-bucket.s3-website-us-east-1.amazonaws.com',
    };
    const apexAlias: ZoneRecord = {
      name: ZONE,
      type: 'ALIAS',
      ttl: 60,
      data: 'dw-env.us-east-1.elasticbeanstalk.com',
    };
    fake.addRecord(ZONE, alias);
    fake.addRecord(ZONE, apexAlias);
    const pageSize = fake.pageSize;
    fake.pageSize = 1000;
    const before = fake.requests.length;
    try {
      const records = await collect(
        route53.readZone({ accessKeyId, secretAccessKey }, ZONE, { baseUrl: fake.url, pageSize: 5000 }),
      );
      expect(records).toContainEqual(alias);
      expect(records).toContainEqual(apexAlias);
      const asked = fake.requests.slice(before).filter((r) => r.path.includes('/rrset'));
      expect(asked.every((r) => r.path.includes('maxitems=300'))).toBe(true);
    } finally {
      fake.pageSize = pageSize;
      fake.zones.set(ZONE, [...SAMPLE]);
    }
  });
});
