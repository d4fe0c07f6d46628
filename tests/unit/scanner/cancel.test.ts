import { setTimeout as wait } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanDomain } from '../../../src/scanner/scan.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const apex = 'c.test';
const records: Array<[string, FixtureRecord]> = [];
for (let i = 0; i < 300; i++) {
  records.push([`n${i}.${apex}`, { type: 'CNAME', data: `dw-${i}.github.io` }]);
  records.push([`dw-${i}.github.io`, { type: 'A', data: FIXTURE_IP }]);
}
const zone = zoneFrom({ apex, records });

let fixtures: ScanFixtures;
beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
});
afterAll(() => fixtures?.close());

async function settled(count: () => number) {
  await wait(50);
  const atAbort = count();
  await wait(800);
  return { atAbort, later: count() };
}

describe('cancelling a scan', () => {
  it('stops DNS work: the scan rejects at once and no query is sent afterwards', async () => {
    fixtures.dns.delayMs = 200;
    const controller = new AbortController();
    const started = Date.now();
    const scan = scanDomain(
      apex,
      fixtures.options({
        subdomains: zone.names(),
        ct: false,
        concurrency: 8,
        timeoutMs: 2000,
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(new Error('stop')), 300);
    await expect(scan).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1000);
    const { atAbort, later } = await settled(() => fixtures.dns.queries.length);
    expect(atAbort).toBeGreaterThan(0);
    expect(later).toBe(atAbort);
    fixtures.dns.delayMs = 0;
  });

  it('stops HTTP work: probes in flight are dropped and no new connection is made', async () => {
    fixtures.web.site = () => 'hang';
    const controller = new AbortController();
    const attempts: number[] = [];
    const scan = scanDomain(
      apex,
      fixtures.options({
        subdomains: zone.names(),
        ct: false,
        timeoutMs: 5000,
        signal: controller.signal,
        onConnect: () => attempts.push(Date.now()),
      }),
    );
    while (attempts.length === 0) await wait(10);
    controller.abort(new Error('stop'));
    const abortedAt = Date.now();
    await expect(scan).rejects.toThrow('stop');
    await wait(300);
    const connections = fixtures.web.connections.http + fixtures.web.connections.https;
    expect(connections).toBeGreaterThan(0);
    expect(fixtures.web.open()).toBe(0);
    await wait(700);
    expect(fixtures.web.connections.http + fixtures.web.connections.https).toBe(connections);
    expect(attempts.filter((t) => t > abortedAt)).toEqual([]);
  });
});
