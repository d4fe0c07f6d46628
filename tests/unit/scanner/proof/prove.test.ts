import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY_CREATOR_WORDS, PROVIDER_SAYS_TAKEN } from '../../../../src/model/proof.ts';
import { catalogue } from '../../../../src/scanner/fingerprints/catalogue.ts';
import type { Entry } from '../../../../src/scanner/fingerprints/schema.ts';
import { proofSettings } from '../../../../src/scanner/proof/settings.ts';
import { renderReport } from '../../../../src/scanner/report/text.ts';
import { scanDomain } from '../../../../src/scanner/scan.ts';
import type { Finding, ScanResult } from '../../../../src/scanner/types.ts';
import { evidencePage, FIXTURE_IP, noSuchBucketPage, zoneFrom } from '../../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../../fixtures/scan-fixtures.ts';
import type { Page } from '../../../fixtures/web-server.ts';

const apex = 'proof.test';
const entry = (id: string) => catalogue.find((e) => e.id === id) as Entry;
const records: Array<[string, FixtureRecord]> = [];
const pages = new Map<string, Page>();
const cname = (name: string, target: string, address = false) => {
  records.push([`${name}.${apex}`, { type: 'CNAME', data: target }]);
  if (address) records.push([target, { type: 'A', data: FIXTURE_IP }]);
};

// S3 website endpoints, the bucket named like the host: free, owned, and S3 slowing down.
const s3 = (name: string) => `${name}.${apex}.s3-website-us-east-1.amazonaws.com`;
cname('assets', s3('assets'), true);
cname('owned', s3('owned'), true);
cname('slow', s3('slow'), true);
for (const name of ['assets', 'owned', 'slow']) pages.set(`${name}.${apex}`, evidencePage(entry('aws-s3')));
pages.set(s3('assets'), noSuchBucketPage(`assets.${apex}`));
pages.set(s3('owned'), {
  status: 404,
  headers: { 'x-amz-bucket-region': 'us-east-1' },
  body: '<Error><Code>NoSuchKey</Code></Error>',
});
pages.set(s3('slow'), {
  status: 503,
  body: '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
});
// Azure names gone from DNS: free, taken, throttled, silent.
cname('old', 'proof-old.azurewebsites.net');
cname('taken', 'proof-taken.azurewebsites.net');
cname('busy', 'proof-busy.trafficmanager.net');
cname('quiet', 'proof-quiet.westeurope.cloudapp.azure.com');
// Elastic Beanstalk: a region-qualified prefix, and an eba- name nobody else can create.
cname('env', 'proof-env.us-east-1.elasticbeanstalk.com');
cname('eba', 'web.eba-a1b2c3d4.us-east-1.elasticbeanstalk.com');
// Heroku with the random suffix of new apps: its no-such-app page changes nothing.
cname('hk', 'proof-1a2b3c4d5e6f.herokuapp.com', true);
pages.set(`hk.${apex}`, evidencePage(entry('heroku')));
// Fastly: neither the name nor its parent on any service.
cname('cdn', 'proof-cdn.fastly.net', true);
const unknownDomain = (host: string): Page => ({
  status: 500,
  body: `Fastly error: unknown domain: ${host}. Please check that this domain has been added to a service.`,
});
pages.set(`cdn.${apex}`, unknownDomain(`cdn.${apex}`));
pages.set(apex, unknownDomain(apex));
// A domain nobody registered: RDAP's 404 is the proof.
cname('gone', 'cdn.proof-lapsed.com');

const zone = zoneFrom({ apex, records, pages, unregistered: ['proof-lapsed.com'] });

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  fixtures.providers.names.set('proof-taken', 'taken');
  fixtures.providers.names.set('proof-busy', '429');
  fixtures.providers.names.set('proof-quiet', 'hang');
  fixtures.providers.retryAfter = 120;
  result = await scanDomain(
    apex,
    fixtures.options({
      ct: false,
      subdomains: zone.names(),
      proof: fixtures.providers.settings({ timeoutMs: 800 }),
    }),
  );
}, 60_000);
afterAll(() => fixtures?.close());

const at = (name: string) => result.findings.find((f) => f.subdomain === `${name}.${apex}`) as Finding;

describe('claimable means proven', () => {
  it('S3: NoSuchBucket for the bucket, asked at the address the resolvers give, proves it', () => {
    expect(at('assets')).toMatchObject({
      status: 'claimable',
      proof: { check: 's3-bucket', answer: { name: `assets.${apex}`, free: true, said: '404 NoSuchBucket' } },
    });
    expect(Date.parse(at('assets').proof?.checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('S3: x-amz-bucket-region means another account holds the bucket: review, with the words', () => {
    expect(at('owned')).toMatchObject({ status: 'review', proof: { answer: { free: false } } });
    expect(at('owned').evidence.join(' ')).toContain(PROVIDER_SAYS_TAKEN);
  });

  it('S3: an answer that is no bucket error proves nothing: likely, no proof', () => {
    expect(at('slow')).toMatchObject({ status: 'likely', proof: null });
  });

  it("Azure's checkNameAvailability proves a free name, and a taken one is review", () => {
    expect(at('old')).toMatchObject({
      status: 'claimable',
      proof: { check: 'azure-app-service', answer: { name: 'proof-old', free: true } },
    });
    expect(at('taken')).toMatchObject({ status: 'review', proof: { check: 'azure-app-service' } });
    expect(at('taken').evidence.join(' ')).toContain(PROVIDER_SAYS_TAKEN);
    // The command's text report says it too, under the finding.
    expect(renderReport(result)).toMatch(
      /\n {4}Azure says the name proof-old is free to register \(checked \d{4}-/,
    );
  });

  it('a provider throttling or silent leaves the finding likely with no proof, and the scan completes', () => {
    expect(at('busy')).toMatchObject({ status: 'likely', proof: null });
    expect(at('busy').evidence.join(' ')).toMatch(/throttling \(Retry-After 120 s\)/);
    expect(at('quiet')).toMatchObject({ status: 'likely', proof: null });
    expect(at('quiet').evidence.join(' ')).toMatch(/did not answer in time/);
  });

  it("Elastic Beanstalk's CheckDNSAvailability proves a free prefix", () => {
    expect(at('env')).toMatchObject({
      status: 'claimable',
      proof: { check: 'elastic-beanstalk', answer: { name: 'proof-env', free: true } },
    });
  });

  it('a name only its creator can create again is review with the words, and no provider is asked', () => {
    for (const name of ['eba', 'hk']) {
      expect(at(name), name).toMatchObject({ status: 'review', risk: 'low', proof: null });
      expect(at(name).evidence, name).toContain(ONLY_CREATOR_WORDS);
    }
    expect(fixtures.providers.requests.some((r) => JSON.stringify(r).includes('eba-'))).toBe(false);
    expect(fixtures.providers.requests.some((r) => r.body.CNAMEPrefix === 'web')).toBe(false);
  });

  it('Fastly: unknown domain for the name and for its parent proves it, though the catalogue says verified', () => {
    expect(at('cdn')).toMatchObject({
      status: 'claimable',
      proof: { check: 'fastly', answer: { name: `cdn.${apex}`, free: true } },
    });
  });

  it("RDAP's 404 is recorded as the proof of an unregistered domain", () => {
    expect(at('gone')).toMatchObject({
      status: 'claimable',
      proof: { check: 'rdap', answer: { name: 'proof-lapsed.com', free: true } },
    });
  });

  it('asks each name once within ten minutes: a second scan is answered from the cache', async () => {
    const asked = fixtures.providers.requests.filter((r) => r.path.includes('checknameavailability')).length;
    expect(asked).toBe(2);
    const again = await scanDomain(
      apex,
      fixtures.options({
        ct: false,
        subdomains: [`old.${apex}`, `taken.${apex}`],
        proof: fixtures.providers.settings(),
      }),
    );
    expect(fixtures.providers.requests.filter((r) => r.path.includes('checknameavailability')).length).toBe(
      asked,
    );
    expect(again.findings.find((f) => f.subdomain === `old.${apex}`)?.proof?.checkedAt).toBe(
      at('old').proof?.checkedAt,
    );
  });

  it('without probe credentials the anonymous proofs still run, and the others are off', async () => {
    const bare = await scanDomain(
      apex,
      fixtures.options({ ct: false, subdomains: [`assets.${apex}`, `env.${apex}`], proof: proofSettings() }),
    );
    const find = (name: string) => bare.findings.find((f) => f.subdomain === `${name}.${apex}`);
    expect(find('assets')).toMatchObject({ status: 'claimable', proof: { check: 's3-bucket' } });
    expect(find('env')).toMatchObject({ status: 'likely', proof: null });
    expect(find('env')?.evidence.join(' ')).toContain(
      'the elastic-beanstalk check is off (no AWS probe credentials)',
    );
  });

  it('with validation off nothing is claimable, proof or not', async () => {
    const unvalidated = await scanDomain(
      apex,
      fixtures.options({ ct: false, validation: false, subdomains: [`cdn.${apex}`, `assets.${apex}`] }),
    );
    for (const finding of unvalidated.findings)
      expect(finding.status, finding.subdomain).not.toBe('claimable');
  });

  it('asks a provider at most four names at once, whatever the scan finds', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `many${i}`);
    const many = zoneFrom({
      apex: 'many.test',
      records: names.map((n): [string, FixtureRecord] => [
        `${n}.many.test`,
        { type: 'CNAME', data: `many-${n}.trafficmanager.net` },
      ]),
    });
    const own = await startScanFixtures(many);
    try {
      own.providers.fallback = 'hang';
      const started = Date.now();
      const scan = await scanDomain(
        'many.test',
        own.options({
          ct: false,
          subdomains: many.names(),
          proof: own.providers.settings({ timeoutMs: 400 }),
        }),
      );
      expect(scan.findings).toHaveLength(12);
      for (const finding of scan.findings) expect(finding).toMatchObject({ status: 'likely', proof: null });
      expect(own.providers.maxInFlight).toBeGreaterThan(1);
      expect(own.providers.maxInFlight).toBeLessThanOrEqual(4 + 1);
      // Twelve questions the provider never answers, each cut at 0.4 s: the scan does not wait for them.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('Fastly: a parent domain served by a Fastly service means nobody else may add the name: review', async () => {
    const held = zoneFrom({
      apex: 'held.test',
      records: [
        ['cdn.held.test', { type: 'CNAME', data: 'held-cdn.fastly.net' }],
        ['held-cdn.fastly.net', { type: 'A', data: FIXTURE_IP }],
      ],
      pages: new Map([['cdn.held.test', unknownDomain('cdn.held.test')]]),
    });
    const own = await startScanFixtures(held);
    try {
      const scan = await scanDomain('held.test', own.options({ ct: false, subdomains: held.names() }));
      expect(scan.findings).toMatchObject([
        { subdomain: 'cdn.held.test', status: 'review', proof: { check: 'fastly', answer: { free: false } } },
      ]);
      expect(scan.findings[0]?.evidence.join(' ')).toContain(
        `${PROVIDER_SAYS_TAKEN} (held.test is on a Fastly service (200))`,
      );
    } finally {
      await own.close();
    }
  }, 60_000);
});
