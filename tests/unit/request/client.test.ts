import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authService, scanService } from '../../../src/lib/request/api.ts';
import { type ClientOptions, createApiClient } from '../../../src/lib/request/client.ts';
import { ERROR_TITLES, type RequestError } from '../../../src/lib/request/errors.ts';
import { type Connectivity, OfflineQueue } from '../../../src/lib/request/offline-queue.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTP server on loopback; each test installs the handler it needs. */
let server: Server;
let baseUrl: string;
let handler: Handler = (_req, res) => res.end();
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  // Mocks first: a spy on a faked setTimeout would otherwise restore the fake.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Records backoff waits instead of sleeping, so a schedule is checked without waiting for it. */
function client(overrides: Partial<ClientOptions> = {}) {
  const waits: number[] = [];
  const api = createApiClient({
    baseUrl,
    getToken: async () => 'token-123',
    sleep: async (ms) => {
      waits.push(ms);
    },
    onUnauthorized: () => {},
    ...overrides,
  });
  return { api, waits };
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as RequestError;
  }
  throw new Error('expected a rejection');
};

describe('headers and bodies', () => {
  it('sends JSON with a bearer token and a unique X-Request-ID', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const { api } = client();
    expect(await api.post('/things', { a: 1 })).toEqual({ ok: true });
    await api.get('/things');
    const [post, get] = seen;
    expect(post?.headers.authorization).toBe('Bearer token-123');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.body).toBe('{"a":1}');
    expect(post?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(get?.headers['x-request-id']).not.toBe(post?.headers['x-request-id']);
  });

  it('reads JSON, text (parsed when it is JSON) and bytes', async () => {
    const { api } = client();
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('{"n":2}');
    };
    expect(await api.get('/t')).toEqual({ n: 2 });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain words');
    };
    expect(await api.get('/t')).toBe('plain words');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([1, 2, 3]));
    };
    expect(await api.get('/t')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('an unauthenticated client sends no Authorization header', async () => {
    handler = (_req, res) => json(res, 200, {});
    await createApiClient({ baseUrl }).get('/health');
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });
});

describe('the error catalogue', () => {
  it('401: Authentication required, and the unauthorized hook runs', async () => {
    handler = (_req, res) => json(res, 401, { error: 'Authentication required', code: 'SESSION_EXPIRED' });
    const onUnauthorized = vi.fn();
    const error = await failure(client({ onUnauthorized }).api.get('/me'));
    expect(error).toMatchObject({
      message: 'Authentication required',
      type: 'AUTHENTICATION',
      statusCode: 401,
    });
    expect(error.code).toBe('SESSION_EXPIRED');
    expect(error.title).toBe('Authentication Failed');
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(seen).toHaveLength(1);
  });

  it('401 by default sends the browser to /auth/signin after 2 s', async () => {
    handler = (_req, res) => json(res, 401, { error: 'Authentication required' });
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { assign, pathname: '/dashboard' } });
    try {
      const api = createApiClient({ baseUrl, getToken: async () => 't' });
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      await failure(api.get('/me'));
      vi.advanceTimersByTime(1999);
      expect(assign).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(assign).toHaveBeenCalledWith('/auth/signin');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('401 on /login stays there: the sign-in page would only send it back', async () => {
    handler = (_req, res) => json(res, 401, { error: 'Authentication required' });
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { assign, pathname: '/login' } });
    try {
      const api = createApiClient({ baseUrl, getToken: async () => 't' });
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      await failure(api.get('/me'));
      vi.advanceTimersByTime(5000);
      expect(assign).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('403: Access denied', async () => {
    handler = (_req, res) => json(res, 403, { error: 'nope' });
    const error = await failure(client().api.get('/x'));
    expect(error).toMatchObject({ message: 'Access denied', type: 'AUTHORIZATION', retryable: false });
    expect(error.title).toBe('Access Denied');
    expect(error.context).toMatchObject({
      method: 'GET',
      path: '/x',
      requestId: seen[0]?.headers['x-request-id'],
    });
  });

  it('429: Rate limit exceeded with the reset time, logged as a warning', async () => {
    const reset = Math.floor(Date.now() / 1000) + 60;
    handler = (_req, res) =>
      json(res, 429, { error: 'Rate limit exceeded' }, { 'x-ratelimit-reset': String(reset) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = await failure(client().api.get('/x'));
    expect(error).toMatchObject({ message: 'Rate limit exceeded', type: 'API_RATE_LIMIT', retryable: false });
    expect(error.context.resetAt).toBe(new Date(reset * 1000).toISOString());
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(new Date(reset * 1000).toISOString()));
    expect(seen).toHaveLength(1);
  });

  it('other failures: the server message and code, else HTTP {status}: {text}', async () => {
    handler = (_req, res) => json(res, 409, { error: 'Already there', code: 'DUPLICATE' });
    expect(await failure(client().api.post('/x'))).toMatchObject({
      message: 'Already there',
      code: 'DUPLICATE',
      type: 'API_ERROR',
      statusCode: 409,
      retryable: false,
    });
    handler = (_req, res) => {
      res.writeHead(418, 'I Am A Teapot');
      res.end();
    };
    expect((await failure(client().api.post('/x'))).message).toBe('HTTP 418: I Am A Teapot');
  });

  it('every type has its title', () => {
    expect(ERROR_TITLES).toMatchObject({
      NETWORK: 'Connection Error',
      AUTHENTICATION: 'Authentication Failed',
      AUTHORIZATION: 'Access Denied',
      API_RATE_LIMIT: 'Rate Limited',
      API_ERROR: 'Service Error',
      WEBSOCKET: 'Real-time Connection Error',
      UNKNOWN: 'Unexpected Error',
    });
  });

  it("'Authentication required' without a user, 'Failed to get authentication token' when the token fails", async () => {
    handler = (_req, res) => json(res, 200, {});
    expect((await failure(client({ getToken: async () => null }).api.get('/x'))).message).toBe(
      'Authentication required',
    );
    const error = await failure(
      client({
        getToken: async () => {
          throw new Error('boom');
        },
      }).api.get('/x'),
    );
    expect(error).toMatchObject({ message: 'Failed to get authentication token', type: 'AUTHENTICATION' });
    expect(seen).toHaveLength(0);
  });
});

describe('retries and backoff', () => {
  it('retries a GET 3 times on 5xx with backoff 1 s, 2 s, 4 s, then fails retryable', async () => {
    handler = (_req, res) => json(res, 503, { error: 'Down for a moment' });
    const { api, waits } = client();
    const error = await failure(api.get('/x'));
    expect(error).toMatchObject({ message: 'Down for a moment', statusCode: 503, retryable: true });
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('retries other methods once', async () => {
    handler = (_req, res) => json(res, 500, {});
    const { api, waits } = client();
    await failure(api.post('/x', {}));
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('succeeds when a retry does', async () => {
    let calls = 0;
    handler = (_req, res) => (++calls < 3 ? json(res, 502, {}) : json(res, 200, { fine: true }));
    const { api, waits } = client();
    expect(await api.get('/x')).toEqual({ fine: true });
    expect(waits).toEqual([1000, 2000]);
  });

  it('does not retry a 4xx', async () => {
    handler = (_req, res) => json(res, 400, { error: 'bad' });
    const { api, waits } = client();
    await failure(api.get('/x'));
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("'Network request failed' after retries when nothing listens", async () => {
    const { api, waits } = client({ baseUrl: 'http://127.0.0.1:9' });
    const error = await failure(api.get('/x'));
    expect(error).toMatchObject({ message: 'Network request failed', type: 'NETWORK', retryable: true });
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it("'Request timeout' when the server is too slow", async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 500);
    const { api } = client({ timeoutMs: 50 });
    const error = await failure(api.get('/slow', { retries: 0 }));
    expect(error).toMatchObject({ message: 'Request timeout', type: 'NETWORK', code: 'TIMEOUT' });
    expect(error.title).toBe('Connection Error');
  });

  it('each attempt has its own X-Request-ID and its own timeout', async () => {
    let calls = 0;
    // 1: too slow (timeout), 2: a 503, 3: too slow again, 4: on time.
    handler = (_req, res) => {
      calls += 1;
      if (calls === 2) json(res, 503, {});
      else setTimeout(() => json(res, 200, { attempt: calls }), calls === 4 ? 0 : 300);
    };
    const { api, waits } = client({ timeoutMs: 100 });
    expect(await api.get('/x')).toEqual({ attempt: 4 });
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(new Set(seen.map((s) => s.headers['x-request-id'])).size).toBe(4);
  });

  it('the real backoff schedule under fake timers: 1 s, then 2 s', async () => {
    let calls = 0;
    handler = (_req, res) => (++calls <= 2 ? json(res, 500, {}) : json(res, 200, { done: true }));
    const api = createApiClient({ baseUrl, getToken: async () => 't' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const scheduled = (ms: number) => timeouts.mock.calls.filter(([, delay]) => delay === ms).length;
    // setImmediate stays real: it lets the socket I/O of the real server run between checks.
    const until = async (condition: () => boolean) => {
      for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setImmediate(r));
      expect(condition()).toBe(true);
    };
    const result = api.get('/x');
    await until(() => calls === 1 && scheduled(1000) === 1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => calls === 2 && scheduled(2000) === 1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => calls === 3);
    expect(await result).toEqual({ done: true });
  });
});

describe('shared in-flight GETs', () => {
  it('identical GETs with a cache key make one request; without a key, each its own', async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, { n: seen.length }), 30);
    const { api } = client();
    const [a, b] = await Promise.all([api.get('/u', { cacheKey: 'u' }), api.get('/u', { cacheKey: 'u' })]);
    expect(a).toBe(b);
    expect(seen).toHaveLength(1);
    await Promise.all([api.get('/u'), api.get('/u')]);
    expect(seen).toHaveLength(3);
    await api.get('/u', { cacheKey: 'u' });
    expect(seen).toHaveLength(4);
  });
});

describe('offline queue', () => {
  it('queues a retryable failure while offline and retries it on reconnect', async () => {
    let online = false;
    let reconnect = () => {};
    const connectivity: Connectivity = {
      isOnline: () => online,
      onOnline: (callback) => {
        reconnect = callback;
        return () => {};
      },
    };
    const queue = new OfflineQueue(connectivity);
    let up = false;
    handler = (_req, res) => (up ? json(res, 200, { back: true }) : json(res, 503, {}));
    const { api, waits } = client({ offlineQueue: queue });
    const result = api.get('/x');
    await vi.waitFor(() => expect(queue.size).toBe(1));
    expect(waits).toEqual([]);
    up = true;
    online = true;
    reconnect();
    expect(await result).toEqual({ back: true });
    expect(queue.size).toBe(0);
  });
});

describe('services', () => {
  it('checks the domain format and the scan id before calling', async () => {
    const { api } = client();
    await expect(scanService(api).start('not a domain')).rejects.toThrow(
      'Invalid domain format: not a domain',
    );
    await expect(scanService(api).get('')).rejects.toThrow('Scan ID is required');
    await expect(scanService(api).cancel('')).rejects.toThrow('Scan ID is required');
    await expect(authService(api).setDomain('x')).rejects.toThrow('Invalid domain format: x');
    // The shared rule: IP literals and reserved names are refused before any call.
    await expect(authService(api).setDomain('127.0.0.1')).rejects.toThrow('Invalid domain format: 127.0.0.1');
    await expect(authService(api).setDomain('printer.local')).rejects.toThrow(
      'Invalid domain format: printer.local',
    );
    expect(seen).toHaveLength(0);
  });
});
