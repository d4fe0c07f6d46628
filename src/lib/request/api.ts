import type { AccountSettings } from '../../model/account-settings.ts';
import type { ActivityResponse } from '../../model/activity.ts';
import { type BillingInfo, CHECKOUT_RETURN_PATH, checkoutPlanId } from '../../model/billing.ts';
import { SCANS_PAGE_SIZE } from '../../model/constants.ts';
import type {
  AlertSettings,
  ApiKeyView,
  CloudAccountView,
  CloudInventoryView,
  CloudProviderId,
  ConnectionView,
  CreatedApiKey,
  DnsProviderId,
  DomainListResponse,
  DomainView,
  FindingRecord,
  FindingStatus,
  InventoryView,
  ScanConfig,
  ScanListResponse,
  ScanStats,
  ScanStatus,
  ScanView,
  TrendPoint,
  WebhookDeliveryView,
  WebhookView,
} from '../../model/contract.ts';
import { checkDomainFormat } from '../../model/domain-input.ts';
import type {
  IntegrationDeliveryView,
  IntegrationKind,
  IntegrationView,
  JiraChoices,
} from '../../model/integrations.ts';
import type { AuthUserResponse, UserProfile } from '../../model/profile.ts';
import type {
  InvitationView,
  MembersResponse,
  MemberView,
  WorkspaceRole,
  WorkspaceView,
} from '../../model/workspaces.ts';
import { API_TIMEOUT_MS, type ApiClient, type ClientOptions, createApiClient } from './client.ts';
import { RequestError } from './errors.ts';

/** Where the API lives: this origin, unless the site was built for an API served elsewhere. */
export function apiBase(): string {
  return (import.meta.env?.PUBLIC_API_BASE as string | undefined)?.replace(/\/+$/, '') ?? '';
}

/** The authenticated client: 30 s timeout, bearer token of the signed-in user. */
export function createAuthedClient(
  getToken: () => Promise<string | null>,
  options: Partial<ClientOptions> = {},
): ApiClient {
  return createApiClient({ baseUrl: apiBase(), timeoutMs: API_TIMEOUT_MS, getToken, ...options });
}

/** The one domain rule (src/model/domain-input.ts), with the request layer's message. */
function assertDomain(domain: string): string {
  const check = checkDomainFormat(domain);
  if (!check.ok) throw new RequestError(`Invalid domain format: ${domain}`, { type: 'VALIDATION' });
  return check.domain;
}

function assertScanId(id: string | undefined): string {
  if (!id) throw new RequestError('Scan ID is required', { type: 'VALIDATION' });
  return encodeURIComponent(id);
}

/** The auth service's calls. */
export function authService(client: ApiClient) {
  return {
    verify: () => client.post<AuthUserResponse>('/auth/verify'),
    getUser: () => client.get<AuthUserResponse>('/auth/user', { cacheKey: 'auth-user' }),
    setDomain: async (domain: string) =>
      client.post<{ domain: string }>('/auth/domain', { domain: assertDomain(domain) }),
    updateSettings: (settings: AccountSettings) =>
      client.patch<{ settings: AccountSettings }>('/auth/settings', { settings }),
    updateProfile: (displayName: string) =>
      client.patch<{ user: UserProfile }>('/api/auth/user/profile', { displayName }),
  };
}

/** The options a scan may be started with (the body of POST /scan/api/v1/scan). */
export interface StartScanOptions {
  skip_discovery?: boolean;
  use_certificate_transparency?: boolean;
  use_multi_stage_validation?: boolean;
}

interface ScanListParams {
  limit?: number;
  offset?: number;
  status?: ScanStatus;
  /** Search on domain or scan id, case-insensitive, done by the server. */
  q?: string;
}

/** The scan service's calls. */
export function scanService(client: ApiClient) {
  return {
    start: async (domain: string, options: StartScanOptions = {}) =>
      client.post<{ scan_id: string; status: ScanStatus }>('/scan/api/v1/scan', {
        domain: assertDomain(domain),
        scanType: 'dangling-subdomains',
        ...options,
      }),
    get: async (id: string) => client.get<ScanView>(`/scan/api/v1/scan/${assertScanId(id)}`),
    cancel: async (id: string) =>
      client.post<{ scan: ScanView }>(`/scan/api/v1/scan/${assertScanId(id)}/cancel`),
    list: (params: ScanListParams = {}) => {
      const query = new URLSearchParams({
        limit: String(params.limit ?? SCANS_PAGE_SIZE),
        offset: String(params.offset ?? 0),
      });
      if (params.status) query.set('status', params.status);
      const q = params.q?.trim();
      if (q) query.set('q', q);
      return client.get<ScanListResponse>(`/scan/api/v1/scans?${query}`, { cacheKey: `scans?${query}` });
    },
    latest: () =>
      client.get<{ scan: ScanView | null }>('/scan/api/v1/scans/latest', { cacheKey: 'scans-latest' }),
    stats: () => client.get<ScanStats>('/scan/api/v1/scans/stats', { cacheKey: 'scans-stats' }),
    exportAll: () =>
      client.get<{ exportedAt: string; scans: ScanView[] }>('/scan/api/v1/export', {
        cacheKey: 'scans-export',
      }),
  };
}

function domainPath(id: string): string {
  if (!id) throw new RequestError('Domain ID is required', { type: 'VALIDATION' });
  return `/api/domains/${encodeURIComponent(id)}`;
}

/** The monitored-domain calls. */
export function domainService(client: ApiClient) {
  return {
    list: () => client.get<DomainListResponse>('/api/domains', { cacheKey: 'domains' }),
    add: async (domain: string, scanConfig?: ScanConfig) =>
      client.post<{ domain: DomainView }>('/api/domains', { domain: assertDomain(domain), scanConfig }),
    verify: async (id: string) =>
      client.post<{ verified: boolean; error?: string; domain: DomainView }>(`${domainPath(id)}/verify`),
    update: async (id: string, changes: { scanConfig?: ScanConfig; alerts?: AlertSettings }) =>
      client.patch<{ domain: DomainView }>(domainPath(id), changes),
    remove: async (id: string) => client.delete<null>(domainPath(id)),
    /** Keeps a domain within the plan's number, in place of the one chosen least recently. */
    keep: async (id: string) => client.post<{ domain: DomainView }>(`${domainPath(id)}/keep`),
    trend: async (id: string) => client.get<{ points: TrendPoint[] }>(`${domainPath(id)}/trend`),
    /**
     * A page of the domain's record inventory (`cursor`: the previous page's nextCursor; `q`: part
     * of the name; `type`: one record type), where it comes from, and its history.
     */
    records: async (id: string, page: { cursor?: string; q?: string; type?: string } = {}) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(page)) if (value) query.set(key, value);
      return client.get<InventoryView>(`${domainPath(id)}/records${query.size ? `?${query}` : ''}`);
    },
    /** Keeps a BIND master file as a verified domain's inventory until replaced. */
    uploadZoneFile: async (id: string, zoneFile: string) =>
      client.request<{ records: number; scanId: string | null }>('PUT', `${domainPath(id)}/zone-file`, {
        body: zoneFile,
        headers: { 'Content-Type': 'text/plain' },
      }),
  };
}

function connectionPath(id: string): string {
  if (!id) throw new RequestError('Connection ID is required', { type: 'VALIDATION' });
  return `/api/dns-connections/${encodeURIComponent(id)}`;
}

/** Read-only DNS provider credentials (Settings → DNS) and the zones they prove and inventory. */
export function dnsConnectionService(client: ApiClient) {
  return {
    list: () => client.get<{ connections: ConnectionView[] }>('/api/dns-connections'),
    create: (provider: DnsProviderId, credentials: Record<string, string>, label?: string) =>
      client.post<{ connection: ConnectionView }>('/api/dns-connections', {
        provider,
        credentials,
        ...(label?.trim() ? { label: label.trim() } : {}),
      }),
    /** Monitors a zone the connection reads: it becomes a verified domain. */
    monitor: async (id: string, zone: string) =>
      client.post<{ domain: DomainView }>(`${connectionPath(id)}/zones`, { zone }),
    sync: async (id: string) => client.post<{ queued: boolean }>(`${connectionPath(id)}/sync`),
    /** Re-enables a connection its answerer's leaving disabled: the caller answers for it from now on. */
    enable: async (id: string) =>
      client.patch<{ connection: ConnectionView }>(connectionPath(id), { enabled: true }),
    remove: async (id: string) => client.delete<null>(connectionPath(id)),
  };
}

function cloudAccountPath(id: string): string {
  if (!id) throw new RequestError('Cloud account ID is required', { type: 'VALIDATION' });
  return `/api/cloud-accounts/${encodeURIComponent(id)}`;
}

/** Read-only cloud account credentials (Settings → Cloud) and what they hold. */
export function cloudAccountService(client: ApiClient) {
  return {
    list: () => client.get<{ accounts: CloudAccountView[] }>('/api/cloud-accounts'),
    create: (provider: CloudProviderId, credentials: Record<string, string>, label?: string) =>
      client.post<{ account: CloudAccountView }>('/api/cloud-accounts', {
        provider,
        credentials,
        ...(label?.trim() ? { label: label.trim() } : {}),
      }),
    /** A new label or grace period, or `enabled: true` to re-enable it (the caller answers for it then). */
    update: async (id: string, change: { enabled?: true; label?: string; graceHours?: number }) =>
      client.patch<{ account: CloudAccountView }>(cloudAccountPath(id), change),
    sync: async (id: string) => client.post<{ queued: boolean }>(`${cloudAccountPath(id)}/sync`),
    inventory: async (id: string, page: { cursor?: string; q?: string; type?: string } = {}) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(page)) if (value) query.set(key, value);
      return client.get<CloudInventoryView>(
        `${cloudAccountPath(id)}/inventory${query.size ? `?${query}` : ''}`,
      );
    },
    remove: async (id: string) => client.delete<null>(cloudAccountPath(id)),
  };
}

/** Findings across scans: their history, and accepting one as a risk. */
export function findingService(client: ApiClient) {
  return {
    list: (domain: string) =>
      client.get<{ findings: FindingRecord[] }>(
        `/api/findings?${new URLSearchParams({ domain, state: 'all' })}`,
      ),
    /** The finding a permalink names by its key: none when it is gone or in another workspace. */
    byKey: (key: string) =>
      client.get<{ findings: FindingRecord[] }>(
        `/api/findings?${new URLSearchParams({ key, state: 'all' })}`,
      ),
    accepted: () => client.get<{ findings: FindingRecord[] }>('/api/findings?state=accepted'),
    /** Every unresolved finding, the accepted ones too (the CSV has their notes). */
    unresolved: async () => {
      const [open, accepted] = await Promise.all([
        client.get<{ findings: FindingRecord[] }>('/api/findings?state=open'),
        client.get<{ findings: FindingRecord[] }>('/api/findings?state=accepted'),
      ]);
      return { findings: [...open.findings, ...accepted.findings] };
    },
    /** Accepts a risk with why and until when (a date, a date-time or `record-changes`), or takes it back. */
    accept: (id: string, acceptance: { note: string; until: string } | null) =>
      client.patch<{ finding: FindingRecord }>(
        `/api/findings/${encodeURIComponent(id)}`,
        acceptance ? { accepted: true, ...acceptance } : { accepted: false },
      ),
  };
}

/** Webhooks for change alerts, their delivery log, 'Send test', and re-enabling a disabled one. */
export function webhookService(client: ApiClient) {
  return {
    list: () => client.get<{ webhooks: WebhookView[]; deliveries: WebhookDeliveryView[] }>('/api/webhooks'),
    add: (url: string, format: WebhookView['format']) =>
      client.post<{ webhook: WebhookView }>('/api/webhooks', { url, format }),
    remove: (id: string) => client.delete<null>(`/api/webhooks/${encodeURIComponent(id)}`),
    test: (id: string) =>
      client.post<{ delivery: WebhookDeliveryView }>(`/api/webhooks/${encodeURIComponent(id)}/test`),
    enable: (id: string) =>
      client.patch<{ webhook: WebhookView }>(`/api/webhooks/${encodeURIComponent(id)}`, { enabled: true }),
  };
}

/** Trackers and pagers (Settings → Integrations): connect, change, replace a credential, test, remove, the log. */
export function integrationService(client: ApiClient) {
  const path = (id: string) => `/api/integrations/${encodeURIComponent(id)}`;
  return {
    list: () => client.get<{ integrations: IntegrationView[] }>('/api/integrations'),
    add: (body: {
      kind: IntegrationKind;
      label?: string;
      minStatus: FindingStatus;
      settings: Record<string, string>;
      credentials: Record<string, string>;
    }) => client.post<{ integration: IntegrationView }>('/api/integrations', body),
    /**
     * A new label, least status or credential (checked with the service before it replaces the old),
     * or `enabled: true` to re-enable it (the caller answers for it then).
     */
    update: (
      id: string,
      body: {
        enabled?: true;
        label?: string;
        minStatus?: FindingStatus;
        credentials?: Record<string, string>;
      },
    ) => client.patch<{ integration: IntegrationView }>(path(id), body),
    remove: (id: string) => client.delete<null>(path(id)),
    test: (id: string) => client.post<{ delivery: IntegrationDeliveryView }>(`${path(id)}/test`),
    deliveries: (id: string) =>
      client.get<{ deliveries: IntegrationDeliveryView[] }>(`${path(id)}/deliveries`),
    /** A Jira site's projects, and with a project its issue types and done statuses; nothing is stored. */
    jiraChoices: (body: {
      siteUrl: string;
      credentials: { email: string; apiToken: string };
      projectKey?: string;
    }) => client.post<JiraChoices>('/api/integrations/jira/choices', body),
  };
}

/** Keys for the public API (Settings → API); the secret comes back once, from create. */
export function apiKeyService(client: ApiClient) {
  return {
    list: () => client.get<{ keys: ApiKeyView[] }>('/api/keys'),
    create: (name: string) => client.post<CreatedApiKey>('/api/keys', { name }),
    revoke: (id: string) => client.delete<{ key: ApiKeyView }>(`/api/keys/${encodeURIComponent(id)}`),
  };
}

/** A workspace's plan and billing: what it is on and uses, checkout, the portal, cancelling. */
export function billingService(client: ApiClient) {
  return {
    info: () => client.get<BillingInfo>('/api/billing/info'),
    /** Stripe Checkout for a plan; the browser goes to the answer's url. */
    checkout: (planName: string, origin: string) =>
      client.post<{ url: string }>('/api/billing/create-checkout-session', {
        planId: checkoutPlanId(planName),
        successUrl: `${origin}${CHECKOUT_RETURN_PATH}&success=true`,
        cancelUrl: `${origin}${CHECKOUT_RETURN_PATH}&canceled=true`,
      }),
    portal: () => client.post<{ url: string }>('/api/billing/create-portal-session'),
    cancelSubscription: () => client.post<BillingInfo>('/api/auth/billing/cancel'),
  };
}

/** The account's own data: export and deletion. */
export function accountService(client: ApiClient) {
  return {
    exportData: () => client.get<Record<string, unknown>>('/api/auth/export'),
    deleteAccount: () => client.delete<null>('/api/auth/account'),
  };
}

function workspacePath(id: string): string {
  if (!id) throw new RequestError('Workspace ID is required', { type: 'VALIDATION' });
  return `/api/workspaces/${encodeURIComponent(id)}`;
}

/**
 * Workspaces, their members and invitations. These calls name the workspace in the path, so they
 * go through a client that sends no X-Workspace-ID.
 */
export function workspaceService(client: ApiClient) {
  return {
    list: () => client.get<{ workspaces: WorkspaceView[] }>('/api/workspaces', { cacheKey: 'workspaces' }),
    create: (name: string) => client.post<{ workspace: WorkspaceView }>('/api/workspaces', { name }),
    rename: (id: string, name: string) =>
      client.patch<{ workspace: WorkspaceView }>(workspacePath(id), { name }),
    /** Deletes a team workspace and everything in it (its owner only). */
    remove: (id: string) => client.delete<null>(workspacePath(id)),
    members: (id: string) => client.get<MembersResponse>(`${workspacePath(id)}/members`),
    /** Who did what, newest first; `before` is the previous page's nextBefore. */
    activity: (id: string, before?: string) =>
      client.get<ActivityResponse>(
        `${workspacePath(id)}/activity${before ? `?${new URLSearchParams({ before })}` : ''}`,
      ),
    /** Invites an address; inviting one with a pending invitation sends a new link in its place. */
    invite: (id: string, email: string, role: WorkspaceRole) =>
      client.post<{ invitation: InvitationView }>(`${workspacePath(id)}/invitations`, { email, role }),
    revokeInvitation: (id: string, invitationId: string) =>
      client.delete<null>(`${workspacePath(id)}/invitations/${encodeURIComponent(invitationId)}`),
    setRole: (id: string, userId: string, role: WorkspaceRole) =>
      client.patch<{ member: MemberView }>(`${workspacePath(id)}/members/${encodeURIComponent(userId)}`, {
        role,
      }),
    /** The caller's own e-mail alerts of the workspace's changes, on or off. */
    setAlerts: (id: string, userId: string, alertsEmail: boolean) =>
      client.patch<{ member: MemberView }>(`${workspacePath(id)}/members/${encodeURIComponent(userId)}`, {
        alertsEmail,
      }),
    /** Removes a member; with the caller's own id, leaves the workspace. */
    removeMember: (id: string, userId: string) =>
      client.delete<null>(`${workspacePath(id)}/members/${encodeURIComponent(userId)}`),
    accept: (token: string) =>
      client.post<{ workspace: WorkspaceView }>('/api/invitations/accept', { token }),
  };
}

export type WorkspaceService = ReturnType<typeof workspaceService>;
export type AccountService = ReturnType<typeof accountService>;
export type BillingService = ReturnType<typeof billingService>;
export type AuthService = ReturnType<typeof authService>;
export type ScanService = ReturnType<typeof scanService>;
export type WebhookService = ReturnType<typeof webhookService>;
export type IntegrationService = ReturnType<typeof integrationService>;
export type FindingService = ReturnType<typeof findingService>;
export type DomainService = ReturnType<typeof domainService>;
export type ApiKeyService = ReturnType<typeof apiKeyService>;
export type DnsConnectionService = ReturnType<typeof dnsConnectionService>;
export type CloudAccountService = ReturnType<typeof cloudAccountService>;
