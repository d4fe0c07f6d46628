import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rdap } from '../../../src/connectors/rdap/rdap.ts';
import { fromCertSpotter, fromCrtSh } from '../../../src/scanner/discover/ct.ts';
import { queryDirect } from '../../../src/scanner/dns/direct.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { probe } from '../../../src/scanner/http/probe.ts';
import { DEFAULTS, ScanDeadlineError, scanDomain } from '../../../src/scanner/scan.ts';
import type { ProgressEvent } from '../../../src/scanner/types.ts';
import { Limiter } from '../../../src/scanner/util/limit.ts';
import { evidencePage, FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import { startWebServers, type WebFixture } from '../../fixtures/web-server.ts';

// Another loopback address the scan must never reach: it stands for 169.254.169.254 and the
// rest of the network the engine runs in.
const CANARY_IP = '127.0.0.2';
const apex = 'ssrf.test';
const github = catalogue.find((e) => e.id === 'github-pages');

let fixtures: ScanFixtures;
let canary: WebFixture;
/** Names that turn into URLs whose host is the canary when a probe builds its URL from them. */
let evil: { given: string; mx: string; hop: string };

beforeAll(async () => {
  canary = await startWebServers(() => ({ status: 200, body: 'metadata' }), CANARY_IP);
  const at = `${CANARY_IP}:${canary.httpPort}/latest/meta-data`;
  evil = { given: `${at}/given.${apex}`, mx: `${at}/mx.${apex}`, hop: `${at}/hop.${apex}` };
  const records: Array<[string, FixtureRecord]> = [
    [apex, { type: 'NS', data: `ns1.${apex}` }],
    [`ns1.${apex}`, { type: 'A', data: FIXTURE_IP }],
    [apex, { type: 'MX', data: { preference: 10, exchange: evil.mx } }],
    [`alias.${apex}`, { type: 'CNAME', data: evil.hop }],
    // A lame delegation whose nameserver is at a private address: never asked directly.
    [`lame.${apex}`, { type: 'NS', data: 'ns.dw-private.com' }],
    ['ns.dw-private.com', { type: 'A', data: FIXTURE_IP }],
  ];
  for (const name of Object.values(evil)) {
    records.push([name, { type: 'CNAME', data: 'dw-ssrf.github.io' }]);
  }
  records.push(['dw-ssrf.github.io', { type: 'A', data: FIXTURE_IP }]);
  fixtures = await startScanFixtures(zoneFrom({ apex, records, behaviours: [[`lame.${apex}`, 'servfail']] }));
  if (github) fixtures.web.site = () => evidencePage(github);
});
afterAll(async () => {
  await fixtures?.close();
  await canary?.close();
});

describe('names that are not host names', () => {
  it('regression: a name with "/" from the caller, an MX record or a CNAME hop never becomes a URL host', async () => {
    const connected: string[] = [];
    const result = await scanDomain(
      apex,
      fixtures.options({
        subdomains: [evil.given, `alias.${apex}`],
        wordlist: ['alias'],
        ct: false,
        onConnect: (address) => connected.push(address),
      }),
    );
    expect(canary.connections).toEqual({ http: 0, https: 0 });
    expect(connected.filter((address) => address !== FIXTURE_IP)).toEqual([]);
    for (const name of Object.values(evil)) expect(result.subdomains).not.toContain(name);
    const messages = result.errors.map((e) => e.message).join('\n');
    expect(messages).toContain('given name');
    expect(messages).toContain(`MX ${apex}`);
    expect(messages).toMatch(/not a host name; not followed/);
  });

  it('a list of bad names costs one error, not one per name', async () => {
    const result = await scanDomain(
      apex,
      fixtures.options({ wordlist: Array.from({ length: 50 }, (_, i) => `bad/${i}`), ct: false }),
    );
    const wordlist = result.errors.filter((e) => e.message.startsWith('wordlist:'));
    expect(wordlist).toHaveLength(1);
    expect(wordlist[0]?.message).toContain('50 names');
  });

  it('regression: a probe refuses a host that is not a host name, and connects only to the pinned address', async () => {
    const connected: string[] = [];
    const options = {
      ports: { http: fixtures.web.httpPort, https: fixtures.web.httpsPort },
      allowPrivate: [FIXTURE_IP],
      timeoutMs: 2000,
      maxBodyBytes: 1024,
      maxRedirects: 0,
      resolveAddress: async () => undefined,
      onConnect: (address: string) => connected.push(address),
    };
    const refused = await probe(evil.given, FIXTURE_IP, 'http', options);
    expect(refused.error?.kind).toBe('blocked');
    const pinned = await probe(`www.${apex}`, FIXTURE_IP, 'https', options);
    expect(pinned.responses[0]?.address).toBe(FIXTURE_IP);
    expect(connected).toEqual([FIXTURE_IP]);
    expect(canary.connections).toEqual({ http: 0, https: 0 });
  });
});

describe('direct DNS queries', () => {
  it('regression: refuse private, loopback, link-local and metadata addresses unless allowed', async () => {
    const before = fixtures.nameserver.queries.length;
    for (const address of [FIXTURE_IP, '10.0.0.53', '169.254.169.254', '::1']) {
      const reply = await queryDirect(address, fixtures.nameserver.port, `lame.${apex}`, 'SOA', {
        timeoutMs: 300,
        tries: 1,
        allowPrivate: false,
      });
      expect(reply.rcode).toBe('BLOCKED');
    }
    expect(fixtures.nameserver.queries.length).toBe(before);
    const allowed = await queryDirect(FIXTURE_IP, fixtures.nameserver.port, `lame.${apex}`, 'SOA', {
      timeoutMs: 1000,
      tries: 1,
      allowPrivate: [FIXTURE_IP],
    });
    expect(allowed.rcode).toBe('REFUSED');
  });

  it('regression: a scan without allowPrivate sends no direct query to a private nameserver', async () => {
    const before = fixtures.nameserver.queries.length;
    const result = await scanDomain(
      apex,
      fixtures.options({ subdomains: [`lame.${apex}`], discovery: false, allowPrivate: false }),
    );
    expect(fixtures.nameserver.queries.length).toBe(before);
    expect(result.findings).toEqual([]);
    expect(result.errors.some((e) => /private address: not asked/.test(e.message))).toBe(true);
  });

  it('regression: accepts a reply only from the address and port asked, and only for the question asked', async () => {
    // The asked server never answers itself; a second socket answers in its place with the right
    // id, then the asked server answers a different question.
    const asked = dgram.createSocket('udp4');
    const spoofer = dgram.createSocket('udp4');
    await Promise.all([asked, spoofer].map((s) => new Promise<void>((r) => s.bind(0, FIXTURE_IP, r))));
    let mode: 'spoof' | 'other-question' = 'spoof';
    asked.on('message', (message, from) => {
      const query = dnsPacket.decode(message);
      const reply = (name: string) =>
        dnsPacket.encode({
          type: 'response',
          id: query.id,
          flags: dnsPacket.AUTHORITATIVE_ANSWER,
          questions: [{ type: 'SOA', name }],
        });
      if (mode === 'spoof') spoofer.send(reply(`lame.${apex}`), from.port, from.address);
      else asked.send(reply(`other.${apex}`), from.port, from.address);
    });
    try {
      const port = (asked.address() as AddressInfo).port;
      const options = { timeoutMs: 400, tries: 1, allowPrivate: [FIXTURE_IP] };
      expect((await queryDirect(FIXTURE_IP, port, `lame.${apex}`, 'SOA', options)).rcode).toBe('TIMEOUT');
      mode = 'other-question';
      expect((await queryDirect(FIXTURE_IP, port, `lame.${apex}`, 'SOA', options)).rcode).toBe('TIMEOUT');
    } finally {
      asked.close();
      spoofer.close();
    }
  });
});

describe('bounds', () => {
  it('regression: a scan checks at most maxNames names, CT and given names before guesses', async () => {
    fixtures.api.crtsh.set(
      apex,
      Array.from({ length: 30 }, (_, i) => ({ name_value: `ct${i}.${apex}` })),
    );
    try {
      const result = await scanDomain(
        apex,
        fixtures.options({
          wordlist: Array.from({ length: 30 }, (_, i) => `w${i}`),
          subdomains: [`alias.${apex}`],
          certspotterUrl: '',
          maxNames: 12,
        }),
      );
      const checked = new Set(result.subdomains);
      expect(checked.size).toBeLessThanOrEqual(12);
      // The given name was looked at: its CNAME leads to a name that is no host name, so it is not
      // counted as checked, and says so.
      expect(result.errors.some((e) => e.subdomain === `alias.${apex}`)).toBe(true);
      expect([...checked].some((name) => name.startsWith('w'))).toBe(false);
      expect(result.stats.skipped).toBeGreaterThanOrEqual(30 + 30 - 12);
      expect(result.errors.some((e) => /limit of 12 names/.test(e.message))).toBe(true);
    } finally {
      fixtures.api.crtsh.delete(apex);
    }
  });

  it('regression: the names a zone injects through NS, MX and CNAME records are capped', async () => {
    const chainApex = 'inject.test';
    const records: Array<[string, FixtureRecord]> = [];
    for (let i = 0; i < 40; i++) {
      records.push([chainApex, { type: 'MX', data: { preference: i, exchange: `mx${i}.${chainApex}` } }]);
      records.push([`c${i}.${chainApex}`, { type: 'CNAME', data: `c${i + 1}.${chainApex}` }]);
    }
    for (const [name, record] of records) fixtures.dns.add(name, record);
    const result = await scanDomain(
      chainApex,
      fixtures.options({ subdomains: [`c0.${chainApex}`], ct: false, maxInjectedNames: 5 }),
    );
    // The apex, the given name and five injected names.
    expect(result.subdomains.length).toBeLessThanOrEqual(7);
    expect(result.stats.skipped).toBeGreaterThan(0);
    expect(result.errors.some((e) => /limit 5/.test(e.message))).toBe(true);
  });

  it('regression: a scan past its deadline rejects with ScanDeadlineError and stops its DNS work', async () => {
    fixtures.dns.delayMs = 300;
    try {
      const started = Date.now();
      const scan = scanDomain(
        apex,
        fixtures.options({ wordlist: ['a', 'b', 'c', 'd'], ct: false, deadlineMs: 500, timeoutMs: 2000 }),
      );
      await expect(scan).rejects.toBeInstanceOf(ScanDeadlineError);
      expect(Date.now() - started).toBeLessThan(2000);
      const atDeadline = fixtures.dns.queries.length;
      await wait(700);
      expect(fixtures.dns.queries.length).toBe(atDeadline);
    } finally {
      fixtures.dns.delayMs = 0;
    }
  });

  it('regression: a limiter never runs more than its maximum, even when tasks arrive as others end', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      running--;
    };
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) all.push(limiter.run(task).then(() => all.push(limiter.run(task))));
    for (let i = 0; i < all.length; i++) await all[i];
    expect(all.length).toBe(20);
    expect(peak).toBe(2);
  });

  it('reports progress at least every couple of seconds, through a silent validation delay', async () => {
    const times: number[] = [];
    const events: ProgressEvent[] = [];
    // One candidate (the lame delegation, for review) and a silent wait before validating it.
    await scanDomain(
      apex,
      fixtures.options({
        subdomains: [`lame.${apex}`],
        discovery: false,
        validationDelayMs: 2500,
        onProgress: (event) => {
          times.push(Date.now());
          events.push(event);
        },
      }),
    );
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(events.some((e) => e.phase === 'validate')).toBe(true);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2 * DEFAULTS.progressIntervalMs);
    expect(events.at(-1)?.phase).toBe('done');
  });
});

describe('untrusted CT and RDAP answers', () => {
  let hanging: http.Server;
  let url: string;
  let pages = 0;
  beforeAll(async () => {
    hanging = http.createServer((req, res) => {
      if (req.url?.startsWith('/certspotter')) {
        // An endless supply of pages, each pointing past the last.
        pages++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ id: String(pages), dns_names: [`p${pages}.${apex}`] }]));
        return;
      }
      // RDAP: no answer at all. CT: headers, a first byte, then nothing.
      if (req.url?.startsWith('/rdap')) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    });
    await new Promise<void>((resolve) => hanging.listen(0, FIXTURE_IP, resolve));
    url = `http://${FIXTURE_IP}:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    hanging.closeAllConnections();
    hanging.close();
  });

  it('regression: a CT server that never finishes its answer costs at most the timeout', async () => {
    const started = Date.now();
    await expect(fromCrtSh(`${url}/crtsh`, apex, { timeoutMs: 300, retries: 0 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('regression: Cert Spotter paging stops at its page limit', async () => {
    const names = await fromCertSpotter(`${url}/certspotter`, apex, { timeoutMs: 1000, maxPages: 3 });
    expect(names).toHaveLength(3);
    expect(pages).toBe(3);
  });

  it('regression: an RDAP server that never answers gives "unknown" within its timeouts', async () => {
    const started = Date.now();
    expect(await new Rdap(`${url}/rdap`, 200).lookup('dw-hang.com')).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
