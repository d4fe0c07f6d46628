import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mxAllowed, parseMtaStsPolicy } from '../../../src/scanner/detect/mta-sts.ts';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

describe('MTA-STS policies', () => {
  it('reads the mode and the mx patterns, ignoring lines that are not key: value', () => {
    expect(
      parseMtaStsPolicy(
        'version: STSv1\r\nmode: Enforce\r\ngarbage\r\nmx: Mail.Example.\r\nmx: *.example.net\r\n',
      ),
    ).toEqual({
      mode: 'enforce',
      mx: ['mail.example', '*.example.net'],
    });
  });

  it('lets `*.` stand for exactly one label', () => {
    expect(mxAllowed('mx1.example.net', ['*.example.net'])).toBe(true);
    expect(mxAllowed('a.mx1.example.net', ['*.example.net'])).toBe(false);
    expect(mxAllowed('example.net', ['*.example.net'])).toBe(false);
    expect(mxAllowed('mail.example', ['mail.example'])).toBe(true);
  });
});

const apex = 'sts-policy.test';
const zone = zoneFrom({
  apex,
  records: [
    [apex, { type: 'NS', data: `ns1.${apex}` }],
    [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
    [apex, { type: 'MX', data: { preference: 10, exchange: `mail.${apex}` } }],
    [`mail.${apex}`, { type: 'A', data: FIXTURE_IP }],
    [`_mta-sts.${apex}`, { type: 'TXT', data: 'v=STSv1; id=1' }],
    [`mta-sts.${apex}`, { type: 'A', data: FIXTURE_IP }],
  ],
  pages: new Map([
    [
      `mta-sts.${apex}`,
      {
        status: 200,
        body: `version: STSv1\nmode: testing\nmx: mail.${apex}\nmx: mx.sts-unreg-policy.com\nmax_age: 86400\n`,
      },
    ],
  ]),
});

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

describe('the hosts a policy allows', () => {
  it('one in a domain nobody has registered is likely, read through the pinned probe', async () => {
    const result = await scanDomain(apex, fixtures.options({ ct: false }));
    expect(result.findings).toMatchObject([
      {
        subdomain: `_mta-sts.${apex}`,
        recordType: 'TXT',
        target: 'mx.sts-unreg-policy.com',
        status: 'likely',
      },
    ]);
    expect(fixtures.web.requests).toContain(`https mta-sts.${apex} /.well-known/mta-sts.txt`);
  });
});

const gone = 'sts-gone.test';
const goneZone = zoneFrom({
  apex: gone,
  records: [
    [gone, { type: 'NS', data: `ns1.${gone}` }],
    [`ns1.${gone}`, { type: 'A', data: FIXTURE_IP }],
    [gone, { type: 'MX', data: { preference: 10, exchange: `mail.${gone}` } }],
    [`mail.${gone}`, { type: 'A', data: FIXTURE_IP }],
    [`_mta-sts.${gone}`, { type: 'TXT', data: 'v=STSv1; id=1' }],
    [`mta-sts.${gone}`, { type: 'A', data: FIXTURE_IP }],
    // The policy's second host aliases an Azure app that was deleted.
    [`mx2.${gone}`, { type: 'CNAME', data: 'dw-sts-gone.azurewebsites.net' }],
    // Registered (it has a web site), but its old mail server is gone.
    ['www.sts-old-relay.com', { type: 'A', data: FIXTURE_IP }],
    // The benign twin: a policy host that is there.
    ['mx.sts-live-relay.com', { type: 'A', data: FIXTURE_IP }],
  ],
  pages: new Map([
    [
      `mta-sts.${gone}`,
      {
        status: 200,
        body: [
          'version: STSv1',
          'mode: enforce',
          `mx: mail.${gone}`,
          `mx: mx2.${gone}`,
          'mx: mx.sts-old-relay.com',
          'mx: mx.sts-live-relay.com',
          'mx: *.sts-old-relay.com',
          'max_age: 86400',
        ].join('\n'),
      },
    ],
  ]),
});

describe('the hosts a policy allows, gone from registered domains', () => {
  let goneFixtures: ScanFixtures;
  beforeAll(async () => {
    goneFixtures = await startScanFixtures(goneZone);
  });
  afterAll(() => goneFixtures?.close());

  it('reports a CNAME into a deleted service as likely, a missing host as review, a live one not at all', async () => {
    const result = await scanDomain(gone, goneFixtures.options({ ct: false }));
    const policy = result.findings.filter((f) => f.subdomain === `_mta-sts.${gone}`);
    expect(policy).toHaveLength(2);
    expect(policy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          target: `mx2.${gone}`,
          service: 'Azure App Service',
          status: 'likely',
        }),
        expect.objectContaining({
          target: 'mx.sts-old-relay.com',
          service: 'MTA-STS policy',
          status: 'review',
        }),
      ]),
    );
    expect(policy.find((f) => f.target === 'mx.sts-old-relay.com')?.evidence.join(' ')).toContain(
      'mx.sts-old-relay.com: NXDOMAIN',
    );
  });
});
