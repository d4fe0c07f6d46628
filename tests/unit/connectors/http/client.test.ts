import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANSWER_BYTES, request, textOf } from '../../../../src/connectors/http/client.ts';
import { ConnectorError } from '../../../../src/connectors/http/error.ts';
import { requestJson } from '../../../../src/connectors/http/json.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A loopback server whose answer each test sets; it counts requests and bodies cut short. */
async function startServer() {
  const state = {
    handler: ((_req, res) => res.end('{}')) as Handler,
    requests: 0,
    url: '',
    server: http.createServer((req, res) => {
      state.requests++;
      state.handler(req, res);
    }),
  };
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}
type Server = Awaited<ReturnType<typeof startServer>>;

async function failure(promise: Promise<unknown>): Promise<ConnectorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}

const anything = z.unknown();
const reason = (body: unknown) => (body as { message?: string } | undefined)?.message;

describe('the one HTTP client of the connectors', () => {
  let server: Server;
  let other: Server;
  let dns: DnsFixture;
  beforeAll(async () => {
    server = await startServer();
    other = await startServer();
    dns = await startDnsServer();
    dns.add('tracker.example-site.test', { type: 'A', data: '127.0.0.1' });
    dns.add('intranet.example-site.test', { type: 'A', data: '10.0.0.5' });
  });
  afterAll(async () => {
    server.server.closeAllConnections();
    other.server.closeAllConnections();
    await Promise.all([
      new Promise((r) => server.server.close(r)),
      new Promise((r) => other.server.close(r)),
      dns.close(),
    ]);
  });

  it('gives up an attempt at its deadline, the body included', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    };
    const started = Date.now();
    const error = await failure(request({ provider: 'Acme', url: server.url, timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.failure).toBe('unavailable');
    expect(error.retry).toBe(true);
    expect(error.message).toBe('Acme did not answer within 0.3 s');
  });

  it('stops reading an answer past its bound and fails the call, the rest never read', async () => {
    let sent = 0;
    let closed = false;
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.on('close', () => {
        closed = true;
      });
      // Lazily, as the client reads: 64 MB if it read on.
      const pump = () => {
        while (sent < 64 * 2 ** 20 && !closed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
    const error = await failure(request({ provider: 'Acme', url: server.url }));
    expect(error.failure).toBe('too-large');
    expect(error.message).toBe('Acme sent an answer larger than DangleWatch reads');
    expect(error.detail).toBe(`the answer is larger than ${ANSWER_BYTES} bytes`);
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(16 * 2 ** 20);
    // A proof check's bound is smaller, and a declared length past it is refused before reading.
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(100 * 1024) });
      res.end(Buffer.alloc(100 * 1024));
    };
    expect((await failure(request({ provider: 'S3', url: server.url, maxBytes: 64 * 1024 }))).failure).toBe(
      'too-large',
    );
  });

  it('follows no redirect unless asked: the 3xx is the answer, the other host never called', async () => {
    other.handler = (_req, res) => res.end('{"elsewhere":true}');
    server.handler = (_req, res) => {
      res.writeHead(302, { location: `${other.url}/stolen` });
      res.end();
    };
    const before = other.requests;
    const answer = await request({ provider: 'Acme', url: server.url });
    expect(answer.status).toBe(302);
    const error = await failure(requestJson({ provider: 'Acme', url: server.url, schema: anything, reason }));
    expect(error.failure).toBe('refused');
    expect(error.message).toBe('Acme answered with a redirect, which DangleWatch does not follow');
    expect(other.requests).toBe(before);
    // Asked to follow (a provider's own host), it does.
    expect(textOf(await request({ provider: 'CT', url: server.url, redirect: 'follow' }))).toBe(
      '{"elsewhere":true}',
    );
  });

  it('waits out a Retry-After within its bound, and not one past it', async () => {
    let calls = 0;
    server.handler = (_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '1' });
        return void res.end('{"message":"slow down"}');
      }
      res.end('{"ok":true}');
    };
    let started = Date.now();
    expect(
      await requestJson({ provider: 'Acme', url: server.url, schema: anything, reason, retries: 2 }),
    ).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls).toBe(2);

    // DigitalOcean says when its window resets, not Retry-After.
    calls = 0;
    server.handler = (_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) });
        return void res.end('{}');
      }
      res.end('{"ok":true}');
    };
    started = Date.now();
    await requestJson({ provider: 'DigitalOcean', url: server.url, schema: anything, reason, retries: 1 });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);

    // An hour is past any bound: the call ends at once, saying how long was asked.
    calls = 0;
    server.handler = (_req, res) => {
      calls++;
      res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' });
      res.end('{"message":"API rate limit exceeded"}');
    };
    started = Date.now();
    const error = await failure(
      requestJson({ provider: 'GitHub', url: server.url, schema: anything, reason, retries: 3 }),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls).toBe(1);
    expect(error).toMatchObject({ failure: 'unavailable', detail: 'API rate limit exceeded', status: 429 });
    expect(error.message).toBe('GitHub is rate limiting us; it will be tried again later');
    expect(error.retryAfterMs).toBeGreaterThan(3_500_000);
  });

  it('refuses a typed host at a private address unless allowed, and connects to the address it checked', async () => {
    server.handler = (_req, res) => res.end('{"ok":true}');
    const before = server.requests;
    const resolvers = [`127.0.0.1:${dns.port}`];
    const strict = await failure(
      request({ provider: 'Jira', url: server.url, userHost: { resolvers, allowPrivate: false } }),
    );
    expect(strict.failure).toBe('address');
    expect(strict.message).toMatch(/^The Jira (URL must use https|address 127\.0\.0\.1 is refused)/);
    const secure = await failure(
      request({
        provider: 'Jira',
        url: 'https://intranet.example-site.test/',
        userHost: { resolvers, allowPrivate: ['127.0.0.1'] },
      }),
    );
    expect(secure.message).toBe(
      'The Jira host intranet.example-site.test does not resolve to a public address',
    );
    expect(server.requests).toBe(before);

    // A name only the scan resolvers know, pinned to the loopback address they gave.
    const port = new URL(server.url).port;
    const answer = await request({
      provider: 'Jira',
      url: `http://tracker.example-site.test:${port}/rest`,
      userHost: { resolvers, allowPrivate: ['127.0.0.1'] },
    });
    expect(textOf(answer)).toBe('{"ok":true}');
    expect(dns.queries.some((q) => q.name === 'tracker.example-site.test')).toBe(true);
  });

  it('says what failed in a plain sentence, with the provider’s own words as the detail', async () => {
    server.handler = (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"message":"IncompleteSignature: Authorization header requires Credential"}');
    };
    const error = await failure(requestJson({ provider: 'AWS', url: server.url, schema: anything, reason }));
    expect(error.failure).toBe('credentials');
    expect(error.message).toBe('AWS did not accept the credential');
    expect(error.detail).toBe('IncompleteSignature: Authorization header requires Credential');
    expect(error.retry).toBe(false);
    server.handler = (_req, res) => res.end('{"zones":"not a list"}');
    const malformed = await failure(
      requestJson({
        provider: 'Cloudflare',
        url: server.url,
        schema: z.object({ zones: z.array(z.string()) }),
        reason,
      }),
    );
    expect(malformed.message).toBe('Cloudflare sent an answer DangleWatch cannot read');
    expect(malformed.detail).toMatch(/^zones: /);
  });
});
