// Records pointing into a connected cloud, judged from the accounts' memory: an address released
// longer ago than the grace period is likely, one no connected account ever held is a review, one
// held now (or released just now) is nothing; a CNAME to a bucket, an environment or a site the
// account no longer has is claimable when the provider says the name is free, review when it says
// another account holds it, likely when nobody can ask. The loopback block plays AWS's ranges, and
// no address in it is probed or connected to; S3's endpoints and the providers' APIs are loopback
// fakes too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY_CREATOR_WORDS, PROVIDER_SAYS_TAKEN } from '../../../src/model/proof.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { CloudInventory, Finding, ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, noSuchBucketPage, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import type { Page } from '../../fixtures/web-server.ts';

const apex = 'cloud.test';
const now = new Date('2026-11-27T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();
const BUCKET_HOST = 'static-acme.s3-website-us-east-1.amazonaws.com';

const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`released.${apex}`, { type: 'A', data: '127.0.50.1' }],
  [`held.${apex}`, { type: 'A', data: '127.0.50.2' }],
  [`moved.${apex}`, { type: 'A', data: '127.0.50.3' }],
  [`stranger.${apex}`, { type: 'A', data: '127.0.50.4' }],
  [`v6.${apex}`, { type: 'AAAA', data: 'fd00:50::1' }],
  [`assets.${apex}`, { type: 'CNAME', data: BUCKET_HOST }],
  [`site.${apex}`, { type: 'CNAME', data: 'd111.cloudfront.net' }],
  [`www.${apex}`, { type: 'CNAME', data: 'c.storage.googleapis.com' }],
];

const inventory = (graceHours: number, firstSyncHoursAgo = 120): CloudInventory => ({
  accounts: [
    {
      label: 'Production',
      cloud: 'aws',
      accounts: ['123456789012'],
      graceHours,
      firstSyncAt: hoursAgo(firstSyncHoursAgo),
      lastSyncAt: hoursAgo(0.1),
      items: [
        {
          kind: 'address',
          type: 'elastic-ip',
          value: '127.0.50.1',
          name: 'eipalloc-1',
          lastSeenAt: hoursAgo(72),
        },
        { kind: 'address', type: 'instance', value: '127.0.50.2', name: 'i-2', lastSeenAt: hoursAgo(0.1) },
        { kind: 'address', type: 'instance', value: '127.0.50.3', name: 'i-3', lastSeenAt: hoursAgo(1) },
        { kind: 'address', type: 'instance', value: 'fd00:50::1', name: 'i-6', lastSeenAt: hoursAgo(100) },
        {
          kind: 'resource',
          type: 'bucket',
          value: BUCKET_HOST,
          name: 'static-acme',
          lastSeenAt: hoursAgo(60),
        },
        {
          kind: 'resource',
          type: 'distribution',
          value: 'd111.cloudfront.net',
          name: 'E1',
          lastSeenAt: hoursAgo(0.1),
        },
      ],
    },
    {
      label: 'Web',
      cloud: 'gcloud',
      accounts: ['acme-web'],
      graceHours,
      firstSyncAt: hoursAgo(firstSyncHoursAgo),
      lastSyncAt: hoursAgo(0.1),
      items: [
        {
          kind: 'resource',
          type: 'bucket',
          value: `www.${apex}`,
          name: `www.${apex}`,
          lastSeenAt: hoursAgo(50),
        },
      ],
    },
  ],
});

let fixtures: ScanFixtures;
const connected: string[] = [];
const zone = zoneFrom({ apex, records });

async function scan(cloudInventory: CloudInventory | undefined): Promise<ScanResult> {
  return scanDomain(
    apex,
    fixtures.options({
      subdomains: zone.names(),
      ct: false,
      discovery: false,
      cloudRanges: [
        { cidr: '127.0.50.0/24', provider: 'AWS', cloud: 'aws' },
        { cidr: 'fd00:50::/32', provider: 'AWS', cloud: 'aws' },
      ],
      cloudInventory,
      now: () => now,
      onConnect: (address) => void connected.push(address),
    }),
  );
}
const at = (result: ScanResult, name: string) =>
  result.findings.filter((f) => f.subdomain === `${name}.${apex}`);
function only(findings: Finding[]): Finding {
  expect(findings).toHaveLength(1);
  return findings[0] as Finding;
}

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

describe('records into a connected cloud', () => {
  let result: ScanResult;
  beforeAll(async () => {
    connected.length = 0;
    result = await scan(inventory(48));
  });

  it('an address the account released longer ago than the grace period: likely, once yours', () => {
    const finding = only(at(result, 'released'));
    expect(finding).toMatchObject({
      recordType: 'A',
      target: '127.0.50.1',
      service: 'AWS',
      status: 'likely',
      risk: 'high',
    });
    expect(finding.explanation).toContain(
      `This address was once yours (last seen ${hoursAgo(72).slice(0, 16).replace('T', ' ')} UTC)`,
    );
    expect(finding.evidence[1]).toBe(
      `127.0.50.1 was held by the AWS account "Production" (123456789012) (elastic-ip eipalloc-1), last seen ${hoursAgo(72)}; the account's reads since (the last at ${hoursAgo(0.1)}) do not list it`,
    );
    expect(only(at(result, 'v6'))).toMatchObject({
      recordType: 'AAAA',
      target: 'fd00:50::1',
      status: 'likely',
    });
  });

  it('an address none of the connected accounts ever held: review', () => {
    const finding = only(at(result, 'stranger'));
    expect(finding).toMatchObject({ target: '127.0.50.4', status: 'review', service: 'AWS' });
    expect(finding.explanation).toContain(
      "127.0.50.4 is in AWS's ranges, but none of your connected AWS accounts holds it",
    );
  });

  it('an address held now, or released within the grace period, is no finding', () => {
    expect(at(result, 'held')).toEqual([]);
    expect(at(result, 'moved')).toEqual([]);
  });

  it('a CNAME to a bucket the account no longer has: likely; to a distribution it has: nothing', () => {
    const finding = only(at(result, 'assets'));
    expect(finding).toMatchObject({
      recordType: 'CNAME',
      target: BUCKET_HOST,
      status: 'likely',
      service: 'AWS',
    });
    expect(finding.evidence[1]).toContain(
      `the bucket static-acme of the AWS account "Production" (123456789012), last seen ${hoursAgo(60)}`,
    );
    expect(at(result, 'site')).toEqual([]);
    // A bucket named like the name, served through Google's shared storage host.
    expect(only(at(result, 'www'))).toMatchObject({
      recordType: 'CNAME',
      target: 'c.storage.googleapis.com',
      status: 'likely',
      service: 'Google Cloud',
    });
  });

  it('never probes or connects to an address in the cloud', () => {
    expect(connected.filter((a) => a.startsWith('127.0.50.') || a.startsWith('fd00:50:'))).toEqual([]);
  });
});

describe('the grace period', () => {
  it('a longer one keeps a recent release quiet; none makes every missing address count', async () => {
    const patient = await scan(inventory(96));
    expect(at(patient, 'released')).toEqual([]);
    // Within the grace period the account's own bucket is still taken as its own: no review either.
    expect(at(patient, 'assets')).toEqual([]);
    expect(only(at(patient, 'v6')).status).toBe('likely');
    const none = await scan(inventory(0));
    expect(only(at(none, 'moved'))).toMatchObject({ status: 'likely', target: '127.0.50.3' });
  });

  it('a newly connected account waits its grace period before calling an unknown address foreign', async () => {
    const fresh = await scan(inventory(48, 2));
    expect(at(fresh, 'stranger')).toEqual([]);
    expect(only(at(fresh, 'released')).status).toBe('likely');
  });

  it('without a connected account the ranges alone decide nothing new', async () => {
    const without = await scan(undefined);
    expect(without.findings.filter((f) => f.status === 'likely')).toEqual([]);
    // The bucket's name is then only what the catalogue makes of it: a missing name, a review.
    expect(only(at(without, 'assets'))).toMatchObject({ status: 'review', service: 'AWS S3' });
  });
});

describe('a resource the account let go, asked of its provider', () => {
  const gone = 'released.test';
  const host = (bucket: string) => `${bucket}.s3.us-east-1.amazonaws.com`;
  const resources: Array<[string, string, string, string]> = [
    // name, CNAME target, resource type, resource name
    ['free', host('free-bucket'), 'bucket', 'free-bucket'],
    ['owned', host('owned-bucket'), 'bucket', 'owned-bucket'],
    ['stuck', host('stuck-bucket'), 'bucket', 'stuck-bucket'],
    ['env', 'acme-env.us-east-1.elasticbeanstalk.com', 'environment', 'acme-env'],
    ['cdn', 'd1a2b3c4d5e6f7.cloudfront.net', 'distribution', 'E2'],
  ];
  const pages = new Map<string, Page>([
    [host('free-bucket'), noSuchBucketPage('free-bucket')],
    [
      host('owned-bucket'),
      {
        status: 403,
        headers: { 'content-type': 'application/xml', 'x-amz-bucket-region': 'eu-west-1' },
        body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
      },
    ],
  ]);
  const zone = zoneFrom({
    apex: gone,
    records: [
      [gone, { type: 'NS', data: `ns1.${gone}` }],
      [`ns1.${gone}`, { type: 'A', data: FIXTURE_IP }],
      ...resources.map(([name, target]): [string, FixtureRecord] => [
        `${name}.${gone}`,
        { type: 'CNAME', data: target },
      ]),
      // S3's endpoints answer at the fixture; the environment and the distribution are gone from DNS.
      ...['free-bucket', 'owned-bucket', 'stuck-bucket'].map((b): [string, FixtureRecord] => [
        host(b),
        { type: 'A', data: FIXTURE_IP },
      ]),
      [`site.${gone}`, { type: 'CNAME', data: 'acme-site.azurewebsites.net' }],
    ],
    pages,
  });
  const memory: CloudInventory = {
    accounts: [
      {
        label: 'Production',
        cloud: 'aws',
        accounts: ['123456789012'],
        graceHours: 48,
        firstSyncAt: hoursAgo(120),
        lastSyncAt: hoursAgo(0.1),
        items: resources.map(([, target, type, name]) => ({
          kind: 'resource' as const,
          type,
          value: target,
          name,
          lastSeenAt: hoursAgo(60),
        })),
      },
      {
        label: 'Web',
        cloud: 'azure',
        accounts: ['00000000-0000-0000-0000-00000000000a'],
        graceHours: 48,
        firstSyncAt: hoursAgo(120),
        lastSyncAt: hoursAgo(0.1),
        items: [
          {
            kind: 'resource',
            type: 'site',
            value: 'acme-site.azurewebsites.net',
            name: 'acme-site',
            lastSeenAt: hoursAgo(60),
          },
        ],
      },
    ],
  };
  let own: ScanFixtures;
  let result: ScanResult;
  const reached: string[] = [];
  const find = (name: string) => only(result.findings.filter((f) => f.subdomain === `${name}.${gone}`));

  beforeAll(async () => {
    own = await startScanFixtures(zone);
    const site = own.web.site;
    // S3 that accepts the request and never answers.
    own.web.site = (name, scheme, path) =>
      name === host('stuck-bucket') ? 'hang' : site(name, scheme, path);
    own.providers.names.set('acme-site', 'taken');
    result = await scanDomain(
      gone,
      own.options({
        subdomains: zone.names(),
        ct: false,
        discovery: false,
        cloudRanges: [{ cidr: '127.0.50.0/24', provider: 'AWS', cloud: 'aws' }],
        cloudInventory: memory,
        now: () => now,
        httpTimeoutMs: 1500,
        onConnect: (address) => void reached.push(address),
      }),
    );
  }, 60_000);
  afterAll(() => own?.close());

  it("a bucket S3 answers NoSuchBucket for: claimable, with S3's answer as the proof", () => {
    const finding = find('free');
    expect(finding).toMatchObject({
      recordType: 'CNAME',
      target: host('free-bucket'),
      service: 'AWS',
      status: 'claimable',
      risk: 'high',
      proof: { check: 's3-bucket', answer: { name: 'free-bucket', free: true, said: '404 NoSuchBucket' } },
    });
    expect(Date.parse(finding.proof?.checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(finding.evidence[1]).toContain('the bucket free-bucket of the AWS account "Production"');
    // Asked anonymously at the bucket's own endpoint, as S3 reads the bucket from the Host header.
    expect(own.web.requests).toContain(`http ${host('free-bucket')} /`);
  });

  it('a bucket another account holds (x-amz-bucket-region, 403): review, with the words', () => {
    const finding = find('owned');
    expect(finding).toMatchObject({
      status: 'review',
      risk: 'low',
      proof: { check: 's3-bucket', answer: { name: 'owned-bucket', free: false } },
    });
    expect(finding.evidence).toContain(`${PROVIDER_SAYS_TAKEN} (x-amz-bucket-region: eu-west-1)`);
  });

  it('S3 not answering in time leaves the finding likely, with no proof', () => {
    const finding = find('stuck');
    expect(finding).toMatchObject({ status: 'likely', risk: 'high', proof: null });
    expect(finding.evidence.at(-1)).toMatch(/^not proven: S3 did not answer/);
  });

  it("Elastic Beanstalk's CheckDNSAvailability and Azure's checkNameAvailability answer for environments and sites", () => {
    expect(find('env')).toMatchObject({
      status: 'claimable',
      proof: { check: 'elastic-beanstalk', answer: { name: 'acme-env', free: true } },
    });
    expect(own.providers.requests.some((r) => r.body.CNAMEPrefix === 'acme-env')).toBe(true);
    const site = find('site');
    expect(site).toMatchObject({
      service: 'Microsoft Azure',
      status: 'review',
      proof: { check: 'azure-app-service', answer: { name: 'acme-site', free: false } },
    });
    expect(site.evidence.join(' ')).toContain(PROVIDER_SAYS_TAKEN);
  });

  it('a distribution only its creator can create again stays review', () => {
    const finding = find('cdn');
    expect(finding).toMatchObject({ status: 'review', proof: null });
    expect(finding.evidence).toContain(ONLY_CREATOR_WORDS);
  });

  it('without the probe credentials the environment is likely, its check off', async () => {
    const bare = await scanDomain(
      gone,
      own.options({
        subdomains: [`env.${gone}`],
        ct: false,
        discovery: false,
        cloudInventory: memory,
        now: () => now,
        proof: { ...own.providers.settings(), aws: undefined },
      }),
    );
    expect(only(bare.findings)).toMatchObject({ subdomain: `env.${gone}`, status: 'likely', proof: null });
    expect(only(bare.findings).evidence.join(' ')).toContain('the elastic-beanstalk check is off');
  });

  it('with validation off nothing is claimable, whatever the provider says', async () => {
    const unvalidated = await scanDomain(
      gone,
      own.options({
        subdomains: [`free.${gone}`],
        ct: false,
        discovery: false,
        validation: false,
        cloudInventory: memory,
        now: () => now,
      }),
    );
    expect(only(unvalidated.findings)).toMatchObject({ status: 'likely', proof: { answer: { free: true } } });
  });

  it('connects to nothing but the loopback fixtures', () => {
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((a) => a !== FIXTURE_IP)).toEqual([]);
  });
});
