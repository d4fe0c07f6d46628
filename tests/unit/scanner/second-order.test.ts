import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencedHosts } from '../../../src/scanner/detect/second-order.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import type { Page } from '../../fixtures/web-server.ts';

const apex = 'so.test';
const bucket = 'dw-so-assets.s3.amazonaws.com';
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`plain.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`hidden-api.${apex}`, { type: 'CNAME', data: 'dw-so-api.azurewebsites.net' }],
  [bucket, { type: 'A', data: FIXTURE_IP }],
  ['cdn.dw-reg.com', { type: 'A', data: FIXTURE_IP }],
];
const html = (body: string): Page => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head>${body}</head><body>ok</body></html>`,
});
const pages = new Map<string, Page>([
  [
    `www.${apex}`,
    html(
      [
        '<script src="https://cdn.dw-unreg-cdn.com/app.js"></script>',
        `<link rel="stylesheet" href="//${bucket}/site.css">`,
        '<script src="https://cdn.dw-reg.com/lib.js"></script>',
        `<iframe src="https://hidden-api.${apex}/widget"></iframe>`,
        '<script src="/local.js"></script>',
      ].join(''),
    ),
  ],
  [`plain.${apex}`, html('<script src="https://cdn.dw-reg.com/lib.js"></script>')],
  [
    bucket,
    {
      status: 404,
      headers: {},
      body: '<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>',
    },
  ],
  ['cdn.dw-reg.com', { status: 200, headers: {}, body: 'console.log(1)' }],
]);
const zone = zoneFrom({ apex, records, pages, unregistered: ['dw-unreg-cdn.com'] });

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  result = await scanDomain(
    apex,
    fixtures.options({ ct: false, subdomains: [`www.${apex}`, `plain.${apex}`] }),
  );
});
afterAll(() => fixtures?.close());

describe('second-order takeover', () => {
  it('finds a page that loads a script from an unregistered domain, and a style from a deleted bucket', () => {
    const found = result.findings.filter((f) => f.subdomain === `www.${apex}`);
    expect(found.map((f) => [f.target, f.service, f.status]).sort()).toEqual([
      ['cdn.dw-unreg-cdn.com', 'unregistered domain dw-unreg-cdn.com', 'claimable'],
      [bucket, 'AWS S3', 'claimable'],
    ]);
    expect(found[0]?.explanation).toContain('runs inside this page');
  });

  it('stays quiet for a page whose references are all in use', () => {
    expect(result.findings.filter((f) => f.subdomain === `plain.${apex}`)).toEqual([]);
  });

  it('scans the in-zone hosts a page names, as names of their own', () => {
    expect(result.subdomains).toContain(`hidden-api.${apex}`);
    expect(result.findings.find((f) => f.subdomain === `hidden-api.${apex}`)).toMatchObject({
      service: 'Azure App Service',
      sources: ['dns'],
    });
  });

  it('reads the hosts of scripts, stylesheets and frames, and nothing relative', () => {
    expect(
      referencedHosts(
        '<script src=https://a.test/x.js></script><link href="//b.test/s.css" rel="stylesheet"><link rel=icon href="https://c.test/i.png"><iframe src="/in"></iframe><img src="https://d.test/p.png">',
      ),
    ).toEqual(['a.test', 'b.test']);
  });
});
