/**
 * A check that could not finish says so. Each hostile web server below (on loopback, behind a name
 * that points at a catalogue service whose page the scan must read) leaves the name's error, in
 * the words the reports carry, and the name out of the names checked: it never reads as clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSarif } from '../../../src/model/sarif.ts';
import { MAX_HEADER_BYTES } from '../../../src/scanner/http/probe.ts';
import { renderReport } from '../../../src/scanner/report/text.ts';
import { DEFAULTS, scanDomain } from '../../../src/scanner/scan.ts';
import type { ScanResult } from '../../../src/scanner/types.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import type { Page, Site } from '../../fixtures/web-server.ts';

const apex = 'unfinished.test';
// Generous: the hostile servers share this process's event loop with the scan.
const HTTP_TIMEOUT_MS = 3000;
const KB = DEFAULTS.maxBodyBytes / 1024;
const notFound: Page = { status: 404, body: 'Not Found' };

/**
 * The server behind each name, by scheme (one behaviour for both unless told), and the error the
 * report must carry for the name. Each name points at a catalogue service, whose page the scan
 * reads for its unclaimed sentence, unless it is a name of the zone's own (an address: its page
 * is read for the scripts it loads).
 */
const cases: Array<{
  label: string;
  http: ReturnType<Site>;
  https?: ReturnType<Site> | 'stalled handshake';
  ownAddress?: true;
  error: string | RegExp;
}> = [
  {
    label: 'www',
    http: 'endless-body',
    ownAddress: true,
    error: `the server kept sending after ${KB} KB`,
  },
  {
    label: 'www-bomb',
    http: 'gzip-bomb',
    ownAddress: true,
    error: `the server's gzip-compressed page unpacks to more than ${KB} KB`,
  },
  { label: 'endless-body', http: 'endless-body', error: `the server kept sending after ${KB} KB` },
  { label: 'huge-body', http: 'huge-body', error: `the server kept sending after ${KB} KB` },
  {
    label: 'gzip-bomb',
    http: 'gzip-bomb',
    error: `the server's gzip-compressed page unpacks to more than ${KB} KB`,
  },
  {
    label: 'endless-headers',
    http: 'endless-headers',
    error: `the server kept sending headers past ${MAX_HEADER_BYTES / 1024} KB`,
  },
  {
    label: 'slow-headers',
    http: 'slow-headers',
    error: "the server did not finish its answer's headers within 3 s",
  },
  {
    label: 'slow-body',
    http: 'slow-body',
    error: 'the server sent its page too slowly: not complete within 3 s',
  },
  { label: 'hang', http: 'hang', error: "the server did not finish its answer's headers within 3 s" },
  {
    label: 'redirect-loop',
    http: { status: 302, headers: { location: '/' }, body: '' },
    error: /^the server redirects in a loop \(back to https?:\/\/redirect-loop\.unfinished\.test:\d+\/\)$/,
  },
  {
    label: 'redirect-chain',
    http: notFound,
    error: 'the server redirected more than 3 times',
  },
  {
    label: 'tls-stall',
    http: notFound,
    https: 'stalled handshake',
    error: 'the TLS handshake did not finish within 3 s',
  },
  {
    label: 'reset',
    http: 'reset',
    error: /^the server (reset the connection|closed the connection without an answer)$/,
  },
  { label: 'garbage', http: 'garbage', error: /^the server's answer is not HTTP \(/ },
];

const name = (label: string) => `${label}.${apex}`;

let fixtures: ScanFixtures;
let result: ScanResult;
beforeAll(async () => {
  const records: Array<[string, FixtureRecord]> = [
    [apex, { type: 'NS', data: `ns1.${apex}` }],
    [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
    [`clean.${apex}`, { type: 'CNAME', data: 'clean.bigcartel.com' }],
    ['clean.bigcartel.com', { type: 'A', data: FIXTURE_IP }],
  ];
  for (const { label, ownAddress } of cases) {
    if (ownAddress) {
      records.push([name(label), { type: 'A', data: FIXTURE_IP }]);
      continue;
    }
    records.push([name(label), { type: 'CNAME', data: `${label}.bigcartel.com` }]);
    records.push([`${label}.bigcartel.com`, { type: 'A', data: FIXTURE_IP }]);
  }
  const zone = zoneFrom({ apex, records });
  fixtures = await startScanFixtures(zone);
  const site = fixtures.web.site;
  fixtures.web.site = (host, scheme, path) => {
    const label = host.slice(0, -apex.length - 1);
    const hostile = cases.find((c) => c.label === label);
    if (!hostile) return site(host, scheme, path);
    // A chain of redirects, each to a new page of the same name: never a loop, always one more.
    if (label === 'redirect-chain') {
      const step = Number(/^\/(\d+)$/.exec(path)?.[1] ?? 0);
      return { status: 302, headers: { location: `/${step + 1}` }, body: '' };
    }
    return scheme === 'https' && hostile.https !== undefined
      ? (hostile.https as ReturnType<Site>)
      : hostile.http;
  };
  for (const { label, https } of cases)
    if (https === 'stalled handshake') fixtures.web.stalledHandshakes.add(name(label));
  result = await scanDomain(
    apex,
    fixtures.options({
      ct: false,
      discovery: false,
      subdomains: zone.names(),
      httpTimeoutMs: HTTP_TIMEOUT_MS,
      validationDelayMs: 0,
    }),
  );
}, 60_000);
afterAll(() => fixtures?.close());

describe('a check that could not finish says so', () => {
  it.each(cases)('$label: the name’s error, no finding, not counted as checked', ({ label, error }) => {
    const errors = result.errors.filter((e) => e.subdomain === name(label)).map((e) => e.message);
    expect(errors.length, JSON.stringify(result.errors)).toBeGreaterThan(0);
    for (const message of errors)
      if (typeof error === 'string') expect(message).toBe(error);
      else expect(message).toMatch(error);
    expect(result.findings.filter((f) => f.subdomain === name(label))).toEqual([]);
    expect(result.subdomains).not.toContain(name(label));
  });

  it('a name whose server behaves is checked and clean, with no error', () => {
    expect(result.subdomains).toContain(`clean.${apex}`);
    expect(result.errors.filter((e) => e.subdomain === `clean.${apex}`)).toEqual([]);
  });

  it('the text report says which names could not be checked, and why', () => {
    const text = renderReport(result);
    expect(text).toContain(`${result.subdomains.length} names checked, ${cases.length} could not be checked`);
    expect(text).toContain(
      `- Could not check ${name('endless-body')}: the server kept sending after ${KB} KB`,
    );
    expect(text).toContain(`- Could not check ${name('tls-stall')}: the TLS handshake did not finish`);
  });

  it('SARIF carries each as a notification of the run', () => {
    const log = buildSarif({
      findings: result.findings,
      status: 'completed',
      started_at: result.startedAt,
      completed_at: result.completedAt,
      errors: result.errors,
    }) as { runs: { invocations: { toolExecutionNotifications: { message: { text: string } }[] }[] }[] };
    const texts = log.runs[0]?.invocations[0]?.toolExecutionNotifications.map((n) => n.message.text);
    for (const { label } of cases)
      expect(texts?.some((text) => text.startsWith(`Could not check ${name(label)}: `))).toBe(true);
  });
});
