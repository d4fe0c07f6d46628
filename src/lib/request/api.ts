import type { AuthUserResponse, UserProfile } from '../auth/profile.ts';
import { API_TIMEOUT_MS, type ApiClient, type ClientOptions, createApiClient } from './client.ts';
import { isValidDomain } from './domain-format.ts';
import { RequestError } from './errors.ts';

export { isValidDomain };

/** Where the API lives: this origin, unless the site was built for an API served elsewhere. */
export function apiBase(): string {
  return (import.meta.env?.PUBLIC_API_BASE as string | undefined)?.replace(/\/+$/, '') ?? '';
}

/** The authenticated client of spec 1 §7: 30 s timeout, bearer token of the signed-in user. */
export function createAuthedClient(
  getToken: () => Promise<string | null>,
  options: Partial<ClientOptions> = {},
): ApiClient {
  return createApiClient({ baseUrl: apiBase(), timeoutMs: API_TIMEOUT_MS, getToken, ...options });
}

function assertDomain(domain: string): string {
  if (!isValidDomain(domain)) {
    throw new RequestError(`Invalid domain format: ${domain}`, { type: 'VALIDATION' });
  }
  return domain.trim().toLowerCase();
}

function assertScanId(id: string | undefined): string {
  if (!id) throw new RequestError('Scan ID is required', { type: 'VALIDATION' });
  return encodeURIComponent(id);
}

/** The auth service's calls (spec 1 §7, spec 2 §7). */
export function authService(client: ApiClient) {
  return {
    verify: () => client.post<AuthUserResponse>('/auth/verify'),
    getUser: () => client.get<AuthUserResponse>('/auth/user', { cacheKey: 'auth-user' }),
    setDomain: async (domain: string) =>
      client.post<{ domain: string }>('/auth/domain', { domain: assertDomain(domain) }),
    updateSettings: (settings: Record<string, unknown>) => client.patch('/auth/settings', { settings }),
    updateProfile: (displayName: string) =>
      client.patch<{ user: UserProfile }>('/api/auth/user/profile', { displayName }),
  };
}

/** The scan service's calls (spec 2 §7); its server side is the dashboard issue's. */
export function scanService(client: ApiClient) {
  return {
    start: async (domain: string) =>
      client.post('/scan/api/v1/scan', { domain: assertDomain(domain), scanType: 'dangling-subdomains' }),
    get: async (id: string) => client.get(`/scan/api/v1/scan/${assertScanId(id)}`),
    cancel: async (id: string) => client.post(`/scan/api/v1/scan/${assertScanId(id)}/cancel`),
    list: (params: { limit?: number; offset?: number; status?: string } = {}) => {
      const query = new URLSearchParams({
        limit: String(params.limit ?? 10),
        offset: String(params.offset ?? 0),
      });
      if (params.status) query.set('status', params.status);
      return client.get(`/scan/api/v1/scans?${query}`, { cacheKey: `scans?${query}` });
    },
    latest: () => client.get('/scan/api/v1/scans/latest', { cacheKey: 'scans-latest' }),
    stats: () => client.get('/scan/api/v1/scans/stats', { cacheKey: 'scans-stats' }),
  };
}
