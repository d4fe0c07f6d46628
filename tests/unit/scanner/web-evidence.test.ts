import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanContext } from '../../../src/scanner/context.ts';
import { webEvidence } from '../../../src/scanner/detect/web.ts';
import { DnsPool } from '../../../src/scanner/dns/resolver.ts';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { evidencePage, FIXTURE_IP } from '../../fixtures/catalogue-zone.ts';
import { type Page, startWebServers, type WebFixture } from '../../fixtures/web-server.ts';

const entry = catalogue.find((e) => e.dns === 'resolves' && e.http && e.cname.length > 0);
if (!entry) throw new Error('no catalogue entry with HTTP evidence');
const working: Page = { status: 200, body: '<h1>Welcome</h1>' };
/** Each host's page per scheme. */
const sites: Record<string, { http: Page; https: Page }> = {
  'live.w.test': { http: working, https: evidencePage(entry) },
  'gone.w.test': { http: evidencePage(entry), https: evidencePage(entry) },
  'half.w.test': { http: evidencePage(entry), https: working },
  'again.w.test': { http: working, https: evidencePage(entry) },
};

let web: WebFixture;
let dns: DnsPool;
let ctx: ScanContext;
beforeAll(async () => {
  web = await startWebServers((host, scheme) => sites[host]?.[scheme]);
  // No question is asked: every probe goes to the address it is given.
  dns = new DnsPool({ servers: [`${FIXTURE_IP}:9`], timeoutMs: 100, tries: 1, concurrency: 4 });
  ctx = new ScanContext(
    {
      domain: 'w.test',
      timeoutMs: 2000,
      httpTimeoutMs: 5000,
      ports: { http: web.httpPort, https: web.httpsPort },
      allowPrivate: [FIXTURE_IP],
      nameserverPort: 53,
      maxBodyBytes: 64 * 1024,
      perServiceConcurrency: 4,
      perServiceRate: 100,
      catalogue,
    },
    dns,
    undefined,
    4,
    [],
  );
});
afterAll(async () => {
  dns?.close();
  await web?.close();
});

const asked = (host: string) => web.requests.filter((request) => request.includes(` ${host} `));

describe('web evidence', () => {
  it('asks HTTPS nothing once HTTP serves a working page without the evidence', async () => {
    expect(await webEvidence(ctx, 'live.w.test', FIXTURE_IP, entry)).toEqual([]);
    expect(asked('live.w.test')).toEqual(['http live.w.test /']);
  });

  it('reads both schemes where HTTP shows the evidence, and reports each', async () => {
    const evidence = await webEvidence(ctx, 'gone.w.test', FIXTURE_IP, entry);
    expect(evidence).toHaveLength(2);
    expect(evidence[0]).toMatch(/^http:/);
    expect(evidence[1]).toMatch(/^https:/);
    expect(asked('gone.w.test')).toEqual(['http gone.w.test /', 'https gone.w.test /']);
  });

  it('reads both schemes at once when it looks again (validation), and still reports the contradiction', async () => {
    expect(await webEvidence(ctx, 'again.w.test', FIXTURE_IP, entry, true)).toEqual([]);
    // The HTTPS probe was under way when HTTP settled it: it arrives all the same.
    await vi.waitFor(() =>
      expect(asked('again.w.test').sort()).toEqual(['http again.w.test /', 'https again.w.test /']),
    );
  });

  it('reports nothing where HTTPS serves a working page that contradicts HTTP', async () => {
    expect(await webEvidence(ctx, 'half.w.test', FIXTURE_IP, entry)).toEqual([]);
  });
});
