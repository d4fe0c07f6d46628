import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsConnectionService, domainService } from '../../../src/lib/request/api.ts';
import { createApiClient } from '../../../src/lib/request/client.ts';

interface Received {
  method: string;
  path: string;
  type: string | undefined;
  authorization: string | undefined;
  body: string;
}

/** A loopback server that records each request and answers 200 `{}` (204 for DELETE). */
let server: http.Server;
let received: Received[] = [];
let baseUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        type: req.headers['content-type'],
        authorization: req.headers.authorization,
        body,
      });
      if (req.method === 'DELETE') res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => {
  received = [];
  return createApiClient({ baseUrl, getToken: async () => 'id-token' });
};

describe('the connected-DNS calls of the request layer, over HTTP', () => {
  it('connections: list, create (label only when given), monitor a zone, sync, remove', async () => {
    const dns = dnsConnectionService(client());
    await dns.list();
    await dns.create('cloudflare', { apiToken: 'tok' }, '  Production ');
    await dns.create('route53', { accessKeyId: 'AKIA', secretAccessKey: 's' }, '   ');
    await dns.monitor('c/1', 'acme.io');
    await dns.sync('c1');
    await dns.remove('c1');
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/dns-connections',
      'POST /api/dns-connections',
      'POST /api/dns-connections',
      'POST /api/dns-connections/c%2F1/zones',
      'POST /api/dns-connections/c1/sync',
      'DELETE /api/dns-connections/c1',
    ]);
    expect(received.every((r) => r.authorization === 'Bearer id-token')).toBe(true);
    expect(JSON.parse(received[1]?.body ?? '')).toEqual({
      provider: 'cloudflare',
      credentials: { apiToken: 'tok' },
      label: 'Production',
    });
    expect(JSON.parse(received[2]?.body ?? '')).toEqual({
      provider: 'route53',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 's' },
    });
    expect(JSON.parse(received[3]?.body ?? '')).toEqual({ zone: 'acme.io' });
    await expect(dns.sync('')).rejects.toThrow('Connection ID is required');
  });

  it('a zone file goes as text/plain, byte for byte; the inventory is read from /records', async () => {
    const domains = domainService(client());
    const zoneFile = '$ORIGIN acme.io.\n$TTL 300\n@ IN A 192.0.2.1\ntxt IN TXT "a \\"quoted\\" {json: 1}"\n';
    await domains.uploadZoneFile('d1', zoneFile);
    await domains.records('d1');
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /api/domains/d1/zone-file',
      'GET /api/domains/d1/records',
    ]);
    expect(received[0]?.type).toBe('text/plain');
    expect(received[0]?.body).toBe(zoneFile);
  });
});
