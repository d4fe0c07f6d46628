import { type FetchContext, FetchError, type FetchResponse, ofetch } from 'ofetch';
import { WORKSPACE_HEADER, WORKSPACE_MESSAGES } from '../../model/workspaces.ts';
import { errorFromResponse, RequestError } from './errors.ts';
import { OfflineQueue } from './offline-queue.ts';

/** Timeouts: 30 s for calls to our API, 10 s for anything else. */
export const API_TIMEOUT_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 10_000;
const RETRY_BASE_DELAY_MS = 1_000;
const GET_RETRIES = 3;
const OTHER_RETRIES = 1;
const UNAUTHORIZED_REDIRECT_MS = 2_000;
/** A server failure (5xx) is worth another try, and so is a network failure (ofetch counts it as 500). */
const RETRY_STATUS_CODES = Array.from({ length: 100 }, (_, i) => 500 + i);

interface RequestOptions {
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
  /** Waits out the backoff before a retry instead of ofetch's timer (tests record the schedule). */
  sleep?: (ms: number) => Promise<void>;
  offlineQueue?: OfflineQueue;
  /** Makes the X-Request-ID of each request. */
  requestId?: () => string;
  /**
   * The workspace the calls act on, sent as X-Workspace-ID on each request; null (or omitted) sends
   * no header, so the server acts on the caller's personal workspace.
   */
  workspaceId?: () => string | null;
  /**
   * Called when a call that named a workspace answers that the workspace is not found: the caller
   * was removed from it, or it was deleted, since the list was read.
   */
  onWorkspaceGone?: (workspaceId: string) => void;
}

export interface ApiClient {
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
}

/**
 * The one rule for a 401: the browser goes to /auth/signin after 2 s, unless it is
 * already on /login, where it would only bounce back.
 */
export function redirectToSignIn(): void {
  if (typeof window === 'undefined' || window.location.pathname.startsWith('/login')) return;
  setTimeout(() => window.location.assign('/auth/signin'), UNAUTHORIZED_REDIRECT_MS);
}

/** The wait before retry number `failures + 1`: 1 s, 2 s, 4 s … */
const backoff = (failures: number) => RETRY_BASE_DELAY_MS * 2 ** failures;

/**
 * The request layer every dashboard call goes through, on ofetch: bearer token and
 * a unique X-Request-ID per attempt, JSON, timeouts, retries with exponential backoff for network
 * failures and 5xx only, shared in-flight GETs, the error catalogue, and an offline queue.
 */
export function createApiClient(options: ClientOptions): ApiClient {
  const queue = options.offlineQueue ?? new OfflineQueue();
  const newRequestId = options.requestId ?? (() => crypto.randomUUID());
  const onUnauthorized = options.onUnauthorized ?? redirectToSignIn;
  const inFlight = new Map<string, Promise<unknown>>();
  const afterFailure = (context: FetchContext) => {
    // ofetch hands this attempt's signal to the retry: spent after a timeout, timer-less after a
    // 5xx. Without it, the retry gets a fresh timeout.
    delete context.options.signal;
    // Retrying while offline cannot help: the request waits for the connection instead.
    if (!queue.isOnline()) context.options.retry = false;
  };

  const prepare = async (context: FetchContext) => {
    context.options.headers.set('X-Request-ID', newRequestId());
    const workspace = options.workspaceId?.();
    if (workspace) context.options.headers.set(WORKSPACE_HEADER, workspace);
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
      context.options.headers.set('Authorization', `Bearer ${token}`);
    }
  };

  const $fetch = ofetch.create(
    {
      baseURL: options.baseUrl,
      headers: { 'Content-Type': 'application/json' },
      retryStatusCodes: RETRY_STATUS_CODES,
      onRequestError: afterFailure,
      async onResponse(context) {
        context.response._data = await settleBody(context.response);
      },
      onResponseError: afterFailure,
    },
    options.fetch ? { fetch: options.fetch } : {},
  );

  async function send(method: string, path: string, opts: RequestOptions): Promise<unknown> {
    const retries = opts.retries ?? (method === 'GET' ? GET_RETRIES : OTHER_RETRIES);
    // ofetch counts the retries left down in `retry`: failures so far = retries - retry.
    const failures = (context: FetchContext) => retries - Number(context.options.retry ?? 0);
    const { sleep } = options;
    try {
      return await $fetch(path, {
        method,
        body: opts.body as Record<string, unknown> | undefined,
        headers: opts.headers,
        timeout: opts.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        retry: retries,
        retryDelay: sleep ? 0 : (context) => backoff(failures(context)),
        onRequest: sleep
          ? [
              async (context) => {
                const done = failures(context);
                if (done > 0) await sleep(backoff(done - 1));
              },
              prepare,
            ]
          : prepare,
      });
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      const failure = toFailure(error, method, path);
      if (failure.statusCode === 401) onUnauthorized(failure);
      const named = new Headers(error.options?.headers).get(WORKSPACE_HEADER);
      if (named && failure.statusCode === 404 && failure.message === WORKSPACE_MESSAGES.notFound) {
        options.onWorkspaceGone?.(named);
      }
      if (failure.retryable && !queue.isOnline()) return queue.enqueue(() => send(method, path, opts));
      throw failure;
    }
  }

  function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const upper = method.toUpperCase();
    if (upper === 'GET' && opts.cacheKey) {
      // The same GET in another workspace is another answer: never share it across a switch.
      const key = `${options.workspaceId?.() ?? ''}:${opts.cacheKey}`;
      const shared = inFlight.get(key);
      if (shared) return shared as Promise<T>;
      const promise = send(upper, path, opts).finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise as Promise<T>;
    }
    return send(upper, path, opts) as Promise<T>;
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
  };
}

/** ofetch's error of the last attempt as an entry of the catalogue. */
function toFailure(error: FetchError, method: string, path: string): RequestError {
  const requestId = new Headers(error.options?.headers).get('X-Request-ID') ?? undefined;
  const context = { method, path, requestId };
  const response = error.response;
  if (response) {
    return errorFromResponse(response.status, response.statusText, response._data, response.headers, context);
  }
  return (error.cause as Error | undefined)?.name === 'TimeoutError'
    ? new RequestError('Request timeout', { type: 'NETWORK', code: 'TIMEOUT', retryable: true, context })
    : new RequestError('Network request failed', { type: 'NETWORK', retryable: true, context });
}

/**
 * Bodies as the request layer hands them back: JSON when the answer says so, text (parsed as JSON when it is
 * JSON), bytes otherwise. ofetch has parsed JSON and read text and blobs; this finishes the job.
 */
async function settleBody(response: FetchResponse<unknown>): Promise<unknown> {
  const data = response._data;
  if (data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  if (data === undefined || (data === '' && /\bjson\b/i.test(response.headers.get('content-type') ?? ''))) {
    return null;
  }
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
