import { DEFAULT_TIMEOUT_MS, readBody } from './client.ts';
import { RequestError } from './errors.ts';

/**
 * The unauthenticated scan-backend client of spec 1 §7 (no token): paths relative to its base,
 * errors in the 'DSS API Error {status}: {body}' form. Ownership verification and usage statistics
 * need a signed-in user and are not offered here.
 */
export function createScanBackendClient(
  baseUrl: string,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const base = baseUrl.replace(/\/+$/, '');

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}/${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-Request-ID': crypto.randomUUID() },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError';
      throw new RequestError(timedOut ? 'Request timeout' : 'Network request failed', {
        type: 'NETWORK',
        retryable: true,
      });
    }
    if (!response.ok) {
      const text = await response.text();
      throw new RequestError(`DSS API Error ${response.status}: ${text}`, {
        type: 'API_ERROR',
        statusCode: response.status,
        retryable: response.status >= 500,
      });
    }
    return (await readBody(response)) as T;
  }

  const unavailable = (what: string) => async (): Promise<never> => {
    throw new RequestError(`${what} is not available on the unauthenticated scan client`, {
      type: 'UNKNOWN',
    });
  };

  return {
    startScan: (body: Record<string, unknown>) => call('POST', 'api/v1/scan', body),
    getScan: (id: string) => call('GET', `api/v1/scan/${encodeURIComponent(id)}`),
    history: (limit = 10) => call('GET', `api/v1/history?limit=${limit}`),
    discover: (domain: string, useCertificateTransparency = true) =>
      call('POST', 'api/v1/discover', { domain, use_certificate_transparency: useCertificateTransparency }),
    detect: (subdomain: string, useMultiStageValidation = true) =>
      call('POST', 'api/v1/detect', { subdomain, use_multi_stage_validation: useMultiStageValidation }),
    health: () => call('GET', 'health'),
    ready: () => call('GET', 'ready'),
    verifyDomainOwnership: unavailable('Domain ownership verification'),
    usageStats: unavailable('Usage statistics'),
  };
}
