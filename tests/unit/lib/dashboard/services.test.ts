import { describe, expect, it } from 'vitest';
import { apiKeyService, domainService, scanService } from '../../../../src/lib/request/api.ts';
import { createApiClient } from '../../../../src/lib/request/client.ts';

/** A client whose fetch records each call and answers 200 with an empty JSON object. */
function recordingClient() {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const client = createApiClient({
    baseUrl: 'http://api.test',
    getToken: async () => 'token',
    fetch: async (input, init) => {
      calls.push({
        method: init?.method ?? 'GET',
        url: String(input),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, calls };
}

describe('the dashboard service clients follow the contract', () => {
  it('scans: start with options, list with paging, status and search, get, cancel, stats, export', async () => {
    const { client, calls } = recordingClient();
    const scans = scanService(client);
    await scans.start(' Example.COM ', { skip_discovery: true, use_certificate_transparency: false });
    await scans.list({ offset: 10, status: 'failed', q: ' 7c1d ' });
    await scans.list();
    await scans.get('abc');
    await scans.cancel('abc');
    await scans.latest();
    await scans.stats();
    await scans.exportAll();
    expect(calls.map((c) => `${c.method} ${c.url.replace('http://api.test', '')}`)).toEqual([
      'POST /scan/api/v1/scan',
      'GET /scan/api/v1/scans?limit=10&offset=10&status=failed&q=7c1d',
      'GET /scan/api/v1/scans?limit=10&offset=0',
      'GET /scan/api/v1/scan/abc',
      'POST /scan/api/v1/scan/abc/cancel',
      'GET /scan/api/v1/scans/latest',
      'GET /scan/api/v1/scans/stats',
      'GET /scan/api/v1/export',
    ]);
    expect(calls[0]?.body).toEqual({
      domain: 'example.com',
      scanType: 'dangling-subdomains',
      skip_discovery: true,
      use_certificate_transparency: false,
    });
  });

  it('domains: list, add with its configuration, verify, update, delete', async () => {
    const { client, calls } = recordingClient();
    const domains = domainService(client);
    const config = {
      skipDiscovery: false,
      useCertificateTransparency: true,
      useMultiStageValidation: true,
      scanFrequency: 'weekly' as const,
    };
    await domains.list();
    await domains.add('acme.io', config);
    await domains.verify('d/1');
    await domains.update('d1', { scanConfig: config });
    await domains.remove('d1');
    expect(calls.map((c) => `${c.method} ${c.url.replace('http://api.test', '')}`)).toEqual([
      'GET /api/domains',
      'POST /api/domains',
      'POST /api/domains/d%2F1/verify',
      'PATCH /api/domains/d1',
      'DELETE /api/domains/d1',
    ]);
    expect(calls[1]?.body).toEqual({ domain: 'acme.io', scanConfig: config });
    expect(calls[3]?.body).toEqual({ scanConfig: config });
    await expect(domains.verify('')).rejects.toThrow('Domain ID is required');
  });

  it('API keys: list, create with a name, revoke', async () => {
    const { client, calls } = recordingClient();
    const keys = apiKeyService(client);
    await keys.list();
    await keys.create('GitHub Actions');
    await keys.revoke('k/1');
    expect(calls.map((c) => `${c.method} ${c.url.replace('http://api.test', '')}`)).toEqual([
      'GET /api/keys',
      'POST /api/keys',
      'DELETE /api/keys/k%2F1',
    ]);
    expect(calls[1]?.body).toEqual({ name: 'GitHub Actions' });
  });
});
