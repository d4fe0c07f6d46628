// Records pointing into a connected cloud, judged from the accounts' memory: an address released
// longer ago than the grace period is likely, one no connected account ever held is a review, one
// held now (or released just now) is nothing; a CNAME to a bucket the account no longer has is
// likely. The loopback block plays AWS's ranges, and no address is probed or connected to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { CloudInventory, Finding, ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

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
