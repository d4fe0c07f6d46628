import { errorFromResponse, RequestError } from './errors.ts';
import { recordMetric } from './metrics.ts';
import { OfflineQueue } from './offline-queue.ts';

/** Timeouts of spec 1 §9: 30 s for calls to our API, 10 s for anything else. */
export const API_TIMEOUT_MS = 30_000;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const RETRY_BASE_DELAY_MS = 1_000;
export const GET_RETRIES = 3;
export const OTHER_RETRIES = 1;
export const UNAUTHORIZED_REDIRECT_MS = 2_000;

export interface RequestOptions {
  body?: unknown;
  /** Identical GETs with the same key share one request while it is in flight. */
  cacheKey?: string;
  timeoutMs?: number;
  retries?: number;
  headers?: Record<string, string>;
}

export interface ClientOptions {
  baseUrl: string;
  /**
   * The signed-in user's ID token; null when nobody is signed in. Omit for an unauthenticated
   * client (no Authorization header at all).
   */
  getToken?: () => Promise<string | null>;
  timeoutMs?: number;
  /** Called for a 401 answer; the default sends the browser to /auth/signin after 2 s. */
  onUnauthorized?: (error: RequestError) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  offlineQueue?: OfflineQueue;
  /** Makes the X-Request-ID of each request. */
  requestId?: () => string;
}

export interface ApiClient {
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one rule for a 401: the browser goes to /auth/signin after 2 s (spec 1 §8), unless it is
 * already on /login, where it would only bounce back.
 */
export function redirectToSignIn(): void {
  if (typeof window === 'undefined' || window.location.pathname.startsWith('/login')) return;
  setTimeout(() => window.location.assign('/auth/signin'), UNAUTHORIZED_REDIRECT_MS);
}

/**
 * The request layer every dashboard call goes through (spec 1 §7-§8): bearer token, unique
 * X-Request-ID, JSON, timeouts, retries with exponential backoff for retryable failures only,
 * shared in-flight GETs, the error catalogue, and an offline queue.
 */
export function createApiClient(options: ClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const queue = options.offlineQueue ?? new OfflineQueue();
  const newRequestId = options.requestId ?? (() => crypto.randomUUID());
  const onUnauthorized = options.onUnauthorized ?? redirectToSignIn;
  const inFlight = new Map<string, Promise<unknown>>();

  async function attempt(method: string, path: string, opts: RequestOptions): Promise<unknown> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Request-ID': newRequestId(),
      ...opts.headers,
    };
    if (options.getToken) {
      let token: string | null;
      try {
        token = await options.getToken();
      } catch (error) {
        throw new RequestError('Failed to get authentication token', {
          type: 'AUTHENTICATION',
          context: { cause: error instanceof Error ? error.message : String(error) },
        });
      }
      if (!token) throw new RequestError('Authentication required', { type: 'AUTHENTICATION' });
      headers.Authorization = `Bearer ${token}`;
    }
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const context = { method, path, requestId: headers['X-Request-ID'] };
    const started = performance.now();
    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: controller.signal,
      });
    } catch {
      throw controller.signal.aborted
        ? new RequestError('Request timeout', { type: 'NETWORK', code: 'TIMEOUT', retryable: true, context })
        : new RequestError('Network request failed', { type: 'NETWORK', retryable: true, context });
    } finally {
      clearTimeout(timer);
      // Per route, without the query: /scans?offset=10 and ?offset=20 are one metric.
      recordMetric(`${method} ${path.split('?')[0]}`, performance.now() - started);
    }
    const body = await readBody(response);
    if (!response.ok) {
      const error = errorFromResponse(response.status, response.statusText, body, response.headers, context);
      if (error.statusCode === 401) onUnauthorized(error);
      throw error;
    }
    return body;
  }

  async function withRetries(method: string, path: string, opts: RequestOptions): Promise<unknown> {
    const retries = opts.retries ?? (method === 'GET' ? GET_RETRIES : OTHER_RETRIES);
    for (let failures = 0; ; failures++) {
      try {
        return await attempt(method, path, opts);
      } catch (error) {
        if (!(error instanceof RequestError) || !error.retryable) throw error;
        // Retrying while offline cannot help: wait for the connection instead.
        if (!queue.isOnline()) return queue.enqueue(() => withRetries(method, path, opts));
        if (failures >= retries) throw error;
        await sleep(RETRY_BASE_DELAY_MS * 2 ** failures);
      }
    }
  }

  function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const upper = method.toUpperCase();
    if (upper === 'GET' && opts.cacheKey) {
      const shared = inFlight.get(opts.cacheKey);
      if (shared) return shared as Promise<T>;
      const promise = withRetries(upper, path, opts).finally(() => inFlight.delete(opts.cacheKey as string));
      inFlight.set(opts.cacheKey, promise);
      return promise as Promise<T>;
    }
    return withRetries(upper, path, opts) as Promise<T>;
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
  };
}

/** JSON when the answer says so; text (parsed as JSON when it is JSON); bytes otherwise. */
export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return null;
  const type = response.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) {
    const text = await response.text();
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (!type || /^text\//i.test(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return new Uint8Array(await response.arrayBuffer());
}
