import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScanBackendClient } from '../../../src/lib/request/scan-backend.ts';

let server: Server;
let base: string;
const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
let reply: { status: number; body: string } = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the unauthenticated scan-backend client', () => {
  it('calls its paths with the spec defaults and no token', async () => {
    const client = createScanBackendClient(base);
    reply = { status: 200, body: '{"ok":true}' };
    await client.history();
    await client.discover('example.com');
    await client.detect('www.example.com', false);
    await client.getScan('a/b');
    await client.health();
    await client.ready();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/v1/history?limit=10',
      'POST /api/v1/discover',
      'POST /api/v1/detect',
      'GET /api/v1/scan/a%2Fb',
      'GET /health',
      'GET /ready',
    ]);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({
      domain: 'example.com',
      use_certificate_transparency: true,
    });
    expect(JSON.parse(seen[2]?.body ?? '')).toEqual({
      subdomain: 'www.example.com',
      use_multi_stage_validation: false,
    });
    expect(seen.every((s) => s.auth === undefined)).toBe(true);
  });

  it("formats failures as 'DSS API Error {status}: {body}'", async () => {
    reply = { status: 502, body: 'upstream gone' };
    await expect(createScanBackendClient(base).startScan({ domain: 'x.io' })).rejects.toMatchObject({
      message: 'DSS API Error 502: upstream gone',
      retryable: true,
    });
  });

  it('does not offer ownership verification or usage statistics', async () => {
    const client = createScanBackendClient(base);
    await expect(client.verifyDomainOwnership()).rejects.toThrow('not available');
    await expect(client.usageStats()).rejects.toThrow('not available');
  });
});
