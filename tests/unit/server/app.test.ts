import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { loadSite } from '../../../src/server/site.ts';
import { testApp } from '../../helpers/app.ts';
import { databaseBackends } from '../../helpers/databases.ts';

const pglite = databaseBackends[0];

describe('the app around its routes', () => {
  let database: Database;
  const dist = mkdtempSync(join(tmpdir(), 'dw-dist-'));

  beforeAll(async () => {
    database = await (pglite?.open() ?? Promise.reject(new Error('no PGlite backend')));
    mkdirSync(join(dist, '_astro'));
    writeFileSync(join(dist, 'index.html'), '<h1>Home</h1><script>init()</script>');
    writeFileSync(join(dist, 'pricing.html'), `<h1>Pricing</h1>${'<p>plans</p>'.repeat(100)}`);
    writeFileSync(join(dist, '404.html'), '<h1>Oops! Page not found</h1>');
    writeFileSync(join(dist, '_astro', 'app.abc123.js'), 'console.log(1)');
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const app = () => testApp(database, { site: loadSite(dist) });

  it('GET /health answers while the process is up', async () => {
    const res = await app().request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('GET /ready answers 200 on a migrated database and 503 when the check fails', async () => {
    expect((await app().request('/ready')).status).toBe(200);
    const failing = testApp(database, { isReady: () => Promise.reject(new Error('connection refused')) });
    const res = await failing.request('/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready' });
  });

  it('serves pages by clean path with a CSP that allows only their own inline scripts', async () => {
    const res = await app().request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Home</h1>');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' [^;]*'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect((await app().request('/pricing')).status).toBe(200);
    expect((await app().request('/pricing/')).status).toBe(200);
  });

  it('sends hardening headers and a request id on every answer', async () => {
    const res = await app().request('/health', { headers: { 'x-request-id': 'trace-42' } });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const generated = (await app().request('/health', { headers: { 'x-request-id': 'bad id with spaces' } }))
      .headers;
    expect(generated.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gzips text when the client accepts it', async () => {
    const res = await app().request('/pricing', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('caches hashed assets for a year and pages not at all', async () => {
    const asset = await app().request('/_astro/app.abc123.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await app().request('/')).headers.get('cache-control')).toBe('no-cache');
  });

  it('answers an unknown page with status 404 and the not-found page', async () => {
    const res = await app().request('/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Oops! Page not found');
  });

  it('answers an unknown API path with a JSON 404 in the error shape', async () => {
    const res = await app().request('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });

  it('regression: JSON answers are never stored by a CDN, but for documents the same for everyone', async () => {
    for (const path of ['/health', '/api/nothing-here', '/scan/api/v1/scans', '/api/domains']) {
      const res = await app().request(path);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
    }
    const openapi = await app().request('/api/v1/openapi.json');
    expect(openapi.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('turns an unexpected failure into a 500 without leaking it', async () => {
    const broken = testApp(database, { site: loadSite(dist) });
    broken.get('/boom', () => {
      throw new Error('secret internals');
    });
    const res = await broken.request('/boom');
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toContain('secret internals');
    expect(JSON.parse(body)).toMatchObject({ code: 'INTERNAL_ERROR', statusCode: 500 });
  });
});
