import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanOptions } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

// The most common dangling record there is: a common name aliased to a cloud app that is gone.
const apex = 'src.test';
const staging = `staging.${apex}`;
const records: Array<[string, FixtureRecord]> = [
  [apex, { type: 'NS', data: `ns1.${apex}` }],
  [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [staging, { type: 'CNAME', data: 'dw-gone-app.azurewebsites.net' }],
];
const zone = zoneFrom({ apex, records });

let fixtures: ScanFixtures;
/** A crt.sh stand-in that answers after `delayMs`, so CT can arrive before or after the wordlist. */
let ct: { url: string; names: string[]; delayMs: number; close(): Promise<void> };

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  const state = { names: [] as string[], delayMs: 0 };
  const server = http.createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(state.names.map((name_value) => ({ name_value }))));
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, FIXTURE_IP, resolve));
  ct = Object.assign(state, {
    url: `http://${FIXTURE_IP}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
});
afterAll(async () => {
  await fixtures?.close();
  await ct?.close();
});

async function scan(wordlist: string[], ctNames: string[], order: 'ct-first' | 'wordlist-first') {
  ct.names = ctNames;
  ct.delayMs = order === 'ct-first' ? 0 : 400;
  // The wildcard probes run before the wordlist is read; slow DNS makes CT arrive first.
  fixtures.dns.delayMs = order === 'ct-first' ? 150 : 0;
  try {
    const options: ScanOptions = fixtures.options({ wordlist, ctUrl: ct.url, certspotterUrl: '' });
    return await scanDomain(apex, options);
  } finally {
    fixtures.dns.delayMs = 0;
  }
}

describe('a CNAME whose chain ends in NXDOMAIN, found with discovery on', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['the wordlist only', ['staging', 'www'], []],
    ['CT only', ['www'], [staging]],
    ['both the wordlist and CT', ['staging', 'www'], [staging]],
  ];
  for (const order of ['ct-first', 'wordlist-first'] as const) {
    it.each(cases)(`regression: is reported when found by %s (${order})`, async (_how, wordlist, ctNames) => {
      const result = await scan(wordlist, ctNames, order);
      expect(result.subdomains).toContain(staging);
      const finding = result.findings.find((f) => f.subdomain === staging);
      expect(finding).toMatchObject({ target: 'dw-gone-app.azurewebsites.net', status: 'claimable' });
    });
  }

  it('drops a guessed name that does not exist itself, but keeps one CT or the caller also named', async () => {
    const result = await scan(['nope', 'ghost', 'www'], [`ghost.${apex}`], 'wordlist-first');
    expect(result.subdomains).not.toContain(`nope.${apex}`);
    expect(result.subdomains).toContain(`ghost.${apex}`);
    expect(result.subdomains).toContain(`www.${apex}`);
  });
});
