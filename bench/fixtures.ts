// The benchmark's fixtures, in their own process so the scanner does not share a CPU thread with
// the servers it measures. Prints one JSON line with the ports, then serves until stdin closes.
import { catalogue } from '../src/scanner/fingerprints/catalogue.ts';
import { evidencePage, FIXTURE_IP, sampleHost, zoneFrom } from '../tests/fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../tests/fixtures/dns-server.ts';
import { startScanFixtures } from '../tests/fixtures/scan-fixtures.ts';
import type { Page } from '../tests/fixtures/web-server.ts';

const [mode = 'zone', countArg = '10000', listNames = 'names'] = process.argv.slice(2);
const count = Number(countArg);
const apex = mode === 'zone' ? 'bench.test' : 'domain.test';
const records: Array<[string, FixtureRecord]> = [[apex, { type: 'NS', data: `ns1.${apex}` }]];
const pages = new Map<string, Page>();
const web = catalogue.filter((e) => e.dns === 'resolves' && e.cname.length > 0);
const gone = catalogue.filter((e) => e.dns === 'nxdomain' && e.cname.length > 0);

for (let i = 0; i < count; i++) {
  const name = `h${i}.${apex}`;
  if (mode === 'zone') {
    // Mostly addresses, some in-zone aliases, as a real zone looks.
    if (i % 5 === 0) records.push([name, { type: 'CNAME', data: `h${i + 1}.${apex}` }]);
    else records.push([name, { type: 'A', data: FIXTURE_IP }]);
    if (i % 3 === 0) records.push([name, { type: 'AAAA', data: '::1' }]);
    continue;
  }
  // The end-to-end domain: 5% dangling at services, 20% live at services, the rest plain hosts.
  const entry = web[i % web.length];
  if (i % 20 === 0 && entry) {
    const target = sampleHost(`dw-gone-${i}`, entry.cname[0] as string);
    records.push([name, { type: 'CNAME', data: target }], [target, { type: 'A', data: FIXTURE_IP }]);
    pages.set(name, evidencePage(entry));
  } else if (i % 20 === 1) {
    const service = gone[i % gone.length];
    records.push([name, { type: 'CNAME', data: sampleHost(`dw-gone-${i}`, service?.cname[0] as string) }]);
  } else if (i % 5 === 2 && entry) {
    const target = sampleHost(`dw-live-${i}`, entry.cname[0] as string);
    records.push([name, { type: 'CNAME', data: target }], [target, { type: 'A', data: FIXTURE_IP }]);
  } else {
    records.push([name, { type: 'A', data: FIXTURE_IP }]);
  }
}

const fixtures = await startScanFixtures(zoneFrom({ apex, records, pages }));
process.stdout.write(
  `${JSON.stringify({
    apex,
    // `no-names`: the caller reads the zone as records and needs no list of 100,000 names of its own.
    names: listNames === 'names' ? records.map(([n]) => n).filter((n) => n !== apex) : [],
    // The names that are aliases: the engine asks them one question, the others two (A and MX).
    aliases: listNames === 'names' ? records.filter(([, r]) => r.type === 'CNAME').map(([n]) => n) : [],
    options: fixtures.options(),
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => fixtures.close().then(() => process.exit(0)));
